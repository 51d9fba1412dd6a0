import IAPSystem

/// Buffers of one size used again once sent: a fresh array of megabytes is memory the kernel must
/// fault in and zero page by page (7% of a media publish's CPU, `perf record`, 2026-11-28), a buffer
/// used again is not. Keeps at most `limit` buffers, and none between `empty()` and the next `take()`.
final class ChunkPool: Sendable {
    /// The size of every buffer.
    let chunkBytes: Int
    private let limit: Int
    /// The buffers kept, and whether buffers given back are kept (not since `empty()`).
    private let state = Locked<(free: [[UInt8]], keeping: Bool)>(([], true))

    /// A pool of `chunkBytes` buffers, keeping up to `limit` of them.
    init(chunkBytes: Int, limit: Int) {
        self.chunkBytes = chunkBytes
        self.limit = limit
    }

    /// A buffer of `chunkBytes` bytes (its content is whatever it held).
    func take() -> [UInt8] {
        let kept = state.withLock {
            $0.keeping = true
            return $0.free.popLast()
        }
        return kept ?? [UInt8](repeating: 0, count: chunkBytes)
    }

    /// Lets go of the buffers kept, and of those given back until the next `take()`: their memory
    /// goes back to the system for other work.
    func empty() {
        state.withLock {
            $0.free.removeAll()
            $0.keeping = false
        }
    }

    /// Gives `chunk` back, if it is one of this pool's size. The pool takes the caller's reference
    /// (pass it with `consume`): a buffer another reference still holds is copied by the next
    /// `take()`'s first write, and the pool then saves nothing.
    func give(_ chunk: consuming [UInt8]) {
        guard chunk.count == chunkBytes else { return }
        var given: [UInt8]? = consume chunk
        state.withLock {
            if $0.keeping, $0.free.count < limit, let buffer = given.take() { $0.free.append(buffer) }
        }
    }
}
