import IAPSystem

/// Buffers of one size used again once sent: a fresh 1 MiB array is memory the kernel must fault
/// in and zero page by page (7% of a media publish's CPU, `perf record`, 2026-11-28), a buffer used
/// again is not. Keeps at most `limit` buffers.
final class ChunkPool: Sendable {
    /// The size of every buffer.
    let chunkBytes: Int
    private let limit: Int
    private let free = Locked<[[UInt8]]>([])

    /// A pool of `chunkBytes` buffers, keeping up to `limit` of them.
    init(chunkBytes: Int, limit: Int) {
        self.chunkBytes = chunkBytes
        self.limit = limit
    }

    /// A buffer of `chunkBytes` bytes (its content is whatever it held).
    func take() -> [UInt8] {
        free.withLock { $0.popLast() } ?? [UInt8](repeating: 0, count: chunkBytes)
    }

    /// Gives `chunk` back, if it is one of this pool's size.
    func give(_ chunk: [UInt8]) {
        guard chunk.count == chunkBytes else { return }
        free.withLock { buffers in
            if buffers.count < limit { buffers.append(chunk) }
        }
    }
}
