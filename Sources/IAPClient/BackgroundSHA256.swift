#if os(Linux)
    import IAPCrypto
    import IAPSystem

    /// A SHA-256 taken on a thread of its own: `update` copies the bytes into 256 KiB chunks that the
    /// thread hashes (at most `chunksInFlight` waiting, their buffers used again), so a large
    /// download is hashed while its next pieces are received and written rather than between them.
    /// `finish` hands over the last chunk and waits for the digest. Without a thread (the system has
    /// none to give) the bytes are hashed in `update` itself.
    final class BackgroundSHA256 {
        static let chunkBytes = 256 << 10
        static let chunksInFlight = 4

        /// What the producer and the thread share. `@unchecked Sendable`: `queue`, `spare`, `closed`
        /// and `digest` are read and written only inside `lock.withLock`; `hasher` is used by the
        /// thread alone while it runs (by the producer only when there is no thread).
        private final class Shared: @unchecked Sendable {
            let lock = ConditionLock()
            let hasher = DigestHasher(.sha256)
            var queue: [[UInt8]] = []
            var spare: [[UInt8]] = []
            var closed = false
            var digest: [UInt8]?
        }

        private let shared = Shared()
        private var chunk: [UInt8] = []
        private let threadRuns: Bool

        init() {
            chunk.reserveCapacity(Self.chunkBytes)
            let shared = shared
            do {
                try BackgroundThread.start { Self.work(shared) }
                threadRuns = true
            } catch {
                threadRuns = false
            }
        }

        /// An abandoned digest (a download started again) lets its thread end.
        deinit {
            let shared = shared
            shared.lock.withLock {
                shared.closed = true
                shared.lock.broadcast()
            }
        }

        /// Feeds `bytes` into the digest.
        func update(_ bytes: UnsafeRawBufferPointer) {
            guard threadRuns else { return shared.hasher.update(bytes) }
            var rest = bytes[...]
            while !rest.isEmpty {
                let taken = min(rest.count, Self.chunkBytes - chunk.count)
                chunk.append(contentsOf: rest.prefix(taken))
                rest = rest.dropFirst(taken)
                if chunk.count == Self.chunkBytes { handOver() }
            }
        }

        /// The digest of every byte fed; nothing may be fed afterwards.
        func finish() -> [UInt8] {
            guard threadRuns else { return shared.hasher.finish() }
            if !chunk.isEmpty { handOver() }
            let shared = shared
            return shared.lock.withLock {
                shared.closed = true
                shared.lock.broadcast()
                while shared.digest == nil { shared.lock.wait() }
                return shared.digest ?? []
            }
        }

        /// Queues the full chunk for the thread and takes a spare buffer for the next one (under the
        /// lock, so the thread always holds the only reference to a chunk it hashes).
        private func handOver() {
            let shared = shared
            shared.lock.withLock {
                while shared.queue.count >= Self.chunksInFlight { shared.lock.wait() }
                shared.queue.append(chunk)
                chunk = shared.spare.popLast() ?? []
                shared.lock.broadcast()
            }
            if chunk.capacity < Self.chunkBytes { chunk.reserveCapacity(Self.chunkBytes) }
        }

        /// The thread: hashes the chunks in order, then gives the digest once the producer is done.
        private static func work(_ shared: Shared) {
            while true {
                let next: [UInt8]? = shared.lock.withLock {
                    while shared.queue.isEmpty && !shared.closed { shared.lock.wait() }
                    return shared.queue.isEmpty ? nil : shared.queue.removeFirst()
                }
                guard var next else { break }
                next.withUnsafeBytes { shared.hasher.update($0) }
                next.removeAll(keepingCapacity: true)
                shared.lock.withLock {
                    if shared.spare.count < chunksInFlight { shared.spare.append(next) }
                    shared.lock.broadcast()
                }
            }
            let digest = shared.hasher.finish()
            shared.lock.withLock {
                shared.digest = digest
                shared.lock.broadcast()
            }
        }
    }
#endif
