import IAPSystem

/// One object's bytes handed in chunks from the thread decoding them to the thread sending them:
/// at most `capacity` bytes wait at once (the producer waits for room), so a file of any size goes
/// up in one PUT through bounded memory. Either side may stop it: the producer with an error (the
/// sender's next read throws it, the request is cut off and nothing is stored), the sender with
/// `close` once its request ended (what the producer writes after that is dropped).
///
/// `@unchecked Sendable`: every mutable field is read and written only inside `lock.withLock`,
/// but `readOffset`, which only the one sender touches.
final class ObjectBodyPipe: ObjectBodySource, @unchecked Sendable {
    private let lock = ConditionLock()
    private let capacity: Int
    /// Chunks not yet sent, oldest first; the first is sent from `readOffset` on.
    private var chunks: [[UInt8]] = []
    private var readOffset = 0
    private var held = 0
    private var ended = false
    private var failure: (any Error)?
    private var closed = false

    /// Where a chunk goes once sent, to be written again.
    private let pool: ChunkPool?

    /// A pipe holding up to `capacity` bytes (or one chunk, if larger); sent chunks go to `pool`.
    init(capacity: Int, pool: ChunkPool? = nil) {
        self.capacity = capacity
        self.pool = pool
    }

    /// Appends `chunk`, waiting while the pipe is full; false once the sender closed it (the chunk
    /// is dropped, and so will the rest be).
    @discardableResult
    func write(_ chunk: [UInt8]) -> Bool {
        guard !chunk.isEmpty else { return true }
        return lock.withLock {
            while !closed, held > 0, held + chunk.count > capacity { lock.wait() }
            guard !closed else { return false }
            chunks.append(chunk)
            held += chunk.count
            lock.broadcast()
            return true
        }
    }

    /// Says every byte is written.
    func finish() {
        lock.withLock {
            ended = true
            lock.broadcast()
        }
    }

    /// Stops the body with `error`: the sender's next read throws it.
    func fail(_ error: any Error) {
        lock.withLock {
            failure = error
            lock.broadcast()
        }
    }

    /// Called by the sender once its request ended: the chunks go, and a waiting producer goes on.
    func close() {
        lock.withLock {
            closed = true
            chunks = []
            held = 0
            lock.broadcast()
        }
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let first = try lock.withLock { () throws -> [UInt8]? in
            while chunks.isEmpty, !ended, failure == nil, !closed { lock.wait() }
            if let failure { throw failure }
            return chunks.first
        }
        guard let first else { return 0 }
        // Copied outside the lock: only this thread takes chunks out.
        let count = min(buffer.count, first.count - readOffset)
        first.withUnsafeBytes { source in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[readOffset..<(readOffset + count)]))
        }
        readOffset += count
        guard readOffset == first.count else { return count }
        readOffset = 0
        _ = consume first  // the pipe's own reference is then the chunk's only one
        lock.withLock {
            guard !chunks.isEmpty else { return }  // closed meanwhile: the chunks are gone
            let sent = chunks.removeFirst()
            held -= sent.count
            // Given back before the producer is woken, so the chunk it takes next is this one.
            pool?.give(consume sent)
            lock.broadcast()
        }
        return count
    }
}
