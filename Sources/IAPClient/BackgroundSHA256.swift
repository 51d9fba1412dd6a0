#if os(Linux)
    import IAPCrypto

    /// A SHA-256 taken on a thread of its own (`BackgroundJobs`): `update` copies the bytes into
    /// 256 KiB chunks that the thread hashes in order, at most four of them waiting, so a large
    /// download is hashed while its next pieces are received and written rather than between them.
    /// A hashed chunk's buffer is used again (a fresh 256 KiB buffer costs a page fault every 4 KiB).
    /// `finish` hands over the last chunk and waits for the digest.
    final class BackgroundSHA256 {
        static let chunkBytes = 256 << 10

        /// A chunk's buffer, passed to the thread and back without copying its bytes.
        /// `@unchecked Sendable`: filled by the producer, then read by the one job it is handed to,
        /// then emptied by the producer once the job gave it back.
        private final class Chunk: @unchecked Sendable {
            var bytes: [UInt8] = []
            init() { bytes.reserveCapacity(BackgroundSHA256.chunkBytes) }
        }

        /// The digest being taken and the buffers hashed. `@unchecked Sendable`: `hasher` is used by
        /// the jobs' one thread, one job after the other, and by `finish` only once that thread has
        /// ended; `spare` is read and written only under `lock`.
        private final class Digest: @unchecked Sendable {
            let hasher = DigestHasher(.sha256)
            let lock = ClientLock()
            var spare: [Chunk] = []
        }

        private let digest = Digest()
        private let jobs = BackgroundJobs(byteBudget: 4 * chunkBytes)
        private var chunk = Chunk()

        /// An abandoned digest (a download started again) lets its thread end.
        deinit { try? jobs.finish() }

        /// Feeds `bytes` into the digest.
        func update(_ bytes: UnsafeRawBufferPointer) {
            var rest = bytes[...]
            while !rest.isEmpty {
                let taken = min(rest.count, Self.chunkBytes - chunk.bytes.count)
                chunk.bytes.append(contentsOf: rest.prefix(taken))
                rest = rest.dropFirst(taken)
                if chunk.bytes.count == Self.chunkBytes { handOver() }
            }
        }

        /// The digest of every byte fed; nothing may be fed afterwards.
        func finish() -> [UInt8] {
            if !chunk.bytes.isEmpty { handOver() }
            try? jobs.finish()  // hashing throws nothing
            return digest.hasher.finish()
        }

        /// Queues the full chunk for the thread and starts the next one in a spare buffer.
        private func handOver() {
            let (full, digest) = (chunk, digest)
            chunk = digest.lock.withLock { digest.spare.popLast() } ?? Chunk()
            chunk.bytes.removeAll(keepingCapacity: true)
            try? jobs.submit(bytes: full.bytes.count) {
                full.bytes.withUnsafeBytes { digest.hasher.update($0) }
                digest.lock.withLock { digest.spare.append(full) }
            }
        }
    }
#endif
