import Dispatch
import IAPCore

/// Hashes (SHA-256) the files an unpack writes on a thread of its own, while the writing thread
/// goes on decoding and writing: the delivery manifest then needs no second read of the content,
/// and the hashing runs on the second core.
///
/// Each piece written is copied into one of a few pooled buffers (at most `slots` in flight, so
/// memory stays bounded) and hashed in order on a serial queue. `@unchecked Sendable`: `current`
/// and `items` are touched only on `queue`; `free` only under `freeLock` (a pthread mutex, which
/// ThreadSanitizer sees: it reported Synchronization.Mutex's futex hand-off as a race); a `Chunk` belongs to
/// the writing thread until it is queued and to the queue until it is put back in `free`.
final class ManifestHasher: @unchecked Sendable {
    private final class Chunk: @unchecked Sendable {
        let buffer: UnsafeMutableRawBufferPointer
        var count = 0
        init(capacity: Int) { buffer = .allocate(byteCount: capacity, alignment: 64) }
        deinit { buffer.deallocate() }
    }

    private let queue = DispatchQueue(label: "iapkg.unpack.manifest-hasher")
    private let chunkBytes: Int
    private let slots: DispatchSemaphore
    private let freeLock = ConditionLock()
    private var free: [Chunk] = []
    private var current: DigestHasher?
    private var items: [StagedManifestItem] = []

    /// A hasher taking pieces of up to `chunkBytes`, with at most `slots` of them waiting, for about
    /// `expectedItems` files and symlinks.
    init(chunkBytes: Int, slots: Int = 4, expectedItems: Int = 0) {
        self.chunkBytes = chunkBytes
        self.slots = DispatchSemaphore(value: slots)
        items.reserveCapacity(expectedItems)  // no doubling (and no two copies alive while it grows)
    }

    /// Starts the next file (the previous one must be ended).
    func begin() {
        queue.async { self.current = DigestHasher(.sha256) }
    }

    /// Hashes the next piece of the current file (copied: the caller may reuse `bytes` at once).
    func update(_ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < bytes.count {
            let take = min(chunkBytes, bytes.count - offset)
            slots.wait()
            let chunk = freeLock.withLock { free.popLast() } ?? Chunk(capacity: chunkBytes)
            chunk.buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + take]))
            chunk.count = take
            offset += take
            queue.async {
                self.current?.update(UnsafeRawBufferPointer(rebasing: chunk.buffer[0..<chunk.count]))
                self.freeLock.withLock { self.free.append(chunk) }
                self.slots.signal()
            }
        }
    }

    /// Ends the current file, recording it at `path` (mode 0644, as unpack creates every file).
    func end(path: String, size: UInt64) {
        queue.async {
            let digest = self.current?.finish() ?? []
            self.current = nil
            self.items.append(
                StagedManifestItem(
                    path: path, sequence: UInt32(truncatingIfNeeded: self.items.count), size: size,
                    sha256: SHA256Value(digest)))
        }
    }

    /// Records a symlink at `path` to `target`.
    func symlink(path: String, target: String) {
        queue.async {
            self.items.append(
                StagedManifestItem(
                    path: path, sequence: UInt32(truncatingIfNeeded: self.items.count), size: 0, target: target))
        }
    }

    /// Returns once every queued piece has been hashed.
    func waitUntilIdle() { queue.sync {} }

    /// Waits for every queued piece and returns what was recorded, one item per path (the last
    /// write of a path wins, as on disk).
    func finish() -> [StagedManifestItem] {
        let all = queue.sync {
            defer { items = [] }
            return items
        }
        return StagedManifestItem.latestPerPath(all)
    }
}
