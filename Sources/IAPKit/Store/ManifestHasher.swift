import Dispatch
import IAPCrypto
import IAPSystem

/// Hashes (SHA-256) the files an unpack writes on a thread of its own, while the writing thread
/// goes on decoding and writing: the delivery manifest then needs no second read of the content,
/// and the hashing runs on the second core. A small file can also be created and written there
/// (`begin(creating:)`): thousands of small files then cost the writing thread no `openat`,
/// `write` or `close`, and the file system's work is split over both cores.
///
/// The writing thread copies what it writes into a pooled chunk, with a list of what happened in
/// it (a file begun, bytes, a file ended, a symlink); a chunk goes to the serial queue only once
/// full (or when the hashes are asked for), so thousands of small files cost one hand-over per
/// chunk, not three per file. At most `slots` chunks are in flight, so memory stays bounded.
/// `@unchecked Sendable`: `current` and `items` are touched only on `queue`; `free` only under
/// `freeLock` (a pthread mutex, which ThreadSanitizer sees: it reported Synchronization.Mutex's
/// futex hand-off as a race); a `Chunk` belongs to the writing thread until it is queued and to
/// the queue until it is put back in `free`; `failure` only under `freeLock`; `file` only on `queue`.
final class ManifestHasher: @unchecked Sendable {
    /// A file the queue creates (`O_EXCL`, 0644) and writes while hashing it, at `path` below
    /// `folder` (by `createFile(beneath:)`: no symlink followed, nothing outside `folder`).
    struct Creation {
        let folder: DirectoryHandle
        let path: String
        /// The umask and ACLs give 0644 as asked: no fchmod.
        let modeIsExact: Bool
    }

    /// What happened in a chunk, in order.
    private enum Event {
        case begin(Creation?)
        case bytes(Range<Int>)
        case end(path: String, size: UInt64)
        case symlink(path: String, target: String)
    }

    /// A pooled buffer and what happened in it. `@unchecked Sendable`: one owner at a time, handed
    /// over through `queue` (which orders the hand-over) and `free` (under `freeLock`): the writing
    /// thread until it is queued, the queue until it is put back in `free`.
    private final class Chunk: @unchecked Sendable {
        let buffer: UnsafeMutableRawBufferPointer
        var count = 0
        var events: [Event] = []
        init(capacity: Int) { buffer = .allocate(byteCount: capacity, alignment: 64) }
        deinit { buffer.deallocate() }
    }

    /// Events a chunk holds before it is handed over, full or not: what the queue has still to do
    /// stays bounded (empty files fill no bytes), and so do the folders its creations keep open.
    static let eventsPerChunk = 128

    private let queue = DispatchQueue(label: "iapkg.unpack.manifest-hasher")
    private let chunkBytes: Int
    private let slots: DispatchSemaphore
    private let freeLock = ConditionLock()
    private var free: [Chunk] = []
    /// The chunk being filled; the writing thread's alone.
    private var pending: Chunk?
    private var current: DigestHasher?
    /// The file the queue is writing, if the current one is its to write.
    private var file: FileDescriptor?
    /// The first error of a creation or write on the queue; later creations are skipped.
    private var failure: (any Error)?
    private var items: [StagedManifestItem] = []

    /// A hasher taking pieces of up to `chunkBytes`, with at most `slots` of them waiting, for about
    /// `expectedItems` files and symlinks.
    init(chunkBytes: Int, slots: Int = 4, expectedItems: Int = 0) {
        self.chunkBytes = chunkBytes
        self.slots = DispatchSemaphore(value: slots)
        items.reserveCapacity(expectedItems)  // no doubling (and no two copies alive while it grows)
    }

    /// Starts the next file (the previous one must be ended); with `creating`, the queue also
    /// creates it and writes every piece given (the caller checks `throwIfFailed`).
    func begin(creating creation: Creation? = nil) {
        chunk().events.append(.begin(creation))
    }

    /// Throws the first error the queue met creating or writing a file.
    func throwIfFailed() throws {
        if let failure = freeLock.withLock({ self.failure }) { throw failure }
    }

    /// Waits until every file given so far is hashed (and, if the queue writes it, written and
    /// closed); throws the first error of those writes.
    func drain() throws {
        waitUntilIdle()
        try throwIfFailed()
    }

    /// Hashes the next piece of the current file (copied: the caller may reuse `bytes` at once).
    func update(_ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < bytes.count {
            var chunk = self.chunk()
            if chunk.count == chunkBytes {
                submit()
                chunk = self.chunk()
            }
            let take = min(chunkBytes - chunk.count, bytes.count - offset)
            let target = UnsafeMutableRawBufferPointer(rebasing: chunk.buffer[chunk.count..<chunk.count + take])
            target.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + take]))
            chunk.events.append(.bytes(chunk.count..<chunk.count + take))
            chunk.count += take
            offset += take
        }
    }

    /// Ends the current file, recording it at `path` (mode 0644, as unpack creates every file).
    func end(path: String, size: UInt64) {
        chunk().events.append(.end(path: path, size: size))
    }

    /// Records a symlink at `path` to `target`.
    func symlink(path: String, target: String) {
        chunk().events.append(.symlink(path: path, target: target))
    }

    /// Returns once every piece given so far has been hashed.
    func waitUntilIdle() {
        submit()
        queue.sync {}
    }

    /// Waits for every piece and returns what was recorded, one item per path (the last write of a
    /// path wins, as on disk).
    func finish() -> [StagedManifestItem] {
        submit()
        let all = queue.sync {
            defer { items = [] }
            return items
        }
        return StagedManifestItem.latestPerPath(all)
    }

    /// The chunk being filled, taken from the pool (waiting for a slot) when there is none or it
    /// holds `eventsPerChunk` events.
    private func chunk() -> Chunk {
        if let pending {
            guard pending.events.count >= Self.eventsPerChunk else { return pending }
            submit()
        }
        slots.wait()
        let chunk = freeLock.withLock { free.popLast() } ?? Chunk(capacity: chunkBytes)
        pending = chunk
        return chunk
    }

    /// Hands the chunk being filled to the queue, which replays its events and puts it back.
    private func submit() {
        guard let chunk = pending else { return }
        pending = nil
        queue.async {
            self.replay(chunk)
            chunk.count = 0
            chunk.events.removeAll(keepingCapacity: true)
            self.freeLock.withLock { self.free.append(chunk) }
            self.slots.signal()
        }
    }

    /// Runs a chunk's events on the queue.
    private func replay(_ chunk: Chunk) {
        for event in chunk.events {
            switch event {
            case .begin(let creation):
                current = DigestHasher(.sha256)
                if let creation { create(creation) }
            case .bytes(let range):
                let bytes = UnsafeRawBufferPointer(rebasing: chunk.buffer[range])
                current?.update(bytes)
                if let file { write(bytes, to: file) }
            case .end(let path, let size):
                let digest = current?.finish() ?? []
                current = nil
                file = nil  // closes it
                items.append(
                    StagedManifestItem(
                        path: path, sequence: UInt32(truncatingIfNeeded: items.count), size: size,
                        sha256: SHA256Value(digest)))
            case .symlink(let path, let target):
                items.append(
                    StagedManifestItem(
                        path: path, sequence: UInt32(truncatingIfNeeded: items.count), size: 0, target: target))
            }
        }
    }

    /// Creates a file for the queue to write, unless an earlier one failed (on the queue).
    private func create(_ creation: Creation) {
        guard freeLock.withLock({ failure == nil }) else { return }
        do {
            file = try creation.folder.createFile(
                beneath: creation.path, mode: 0o644, modeIsExact: creation.modeIsExact)
        } catch {
            freeLock.withLock { failure = error }
        }
    }

    /// Writes a piece of the queue's current file, keeping the first error (on the queue).
    private func write(_ bytes: UnsafeRawBufferPointer, to file: FileDescriptor) {
        do { try file.write(bytes) } catch {
            self.file = nil
            freeLock.withLock { if failure == nil { failure = error } }
        }
    }
}
