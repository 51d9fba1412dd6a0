internal import IAPSystem

/// Runs a Payload decoder on a thread of its own, up to two blocks ahead of the cpio parser that
/// consumes them: inflating (or un-xz-ing) and parsing then take both cores instead of one.
///
/// Blocks come back in the order they were decoded; an error is handed over after every block
/// decoded before it, and again on every later call. The decoder, and the byte source behind it,
/// are used only on the decoding thread from the first block on. Going away stops that thread
/// and waits for it (it finishes the block in hand first), so nothing reads the source afterwards.
final class DecodeAhead {
    private let shared: Shared

    /// Starts decoding `decoder`'s output on a new thread; nil when the system gives no thread.
    init?(decoder: any BlockDecoding, blockCapacity: Int) {
        shared = Shared(decoder: decoder, blockCapacity: blockCapacity)
        do {
            try BackgroundThread.start { [shared] in shared.produce() }
        } catch {
            return nil
        }
    }

    deinit { shared.stop() }

    /// The next decoded block (empty once the stream ended cleanly); hand it back with `recycle`.
    func next() throws(PayloadError) -> DecodedBlock { try shared.next() }

    /// Gives a block the parser is done with back to the decoding thread.
    func recycle(_ block: DecodedBlock) { shared.recycle(block) }

    /// The state both threads share. `@unchecked Sendable`: every field but `decoder` is touched
    /// only under `lock`; `decoder` only on the decoding thread (after `init`), which lets it go
    /// before it says it has stopped: the source's file is closed by the time `stop` returns.
    private final class Shared: @unchecked Sendable {
        private var decoder: (any BlockDecoding)?
        private let lock = ConditionLock()
        private var ready: [DecodedBlock] = []
        private var free: [DecodedBlock]
        private var failure: PayloadError?
        private var cancelled = false
        private var running = true

        init(decoder: any BlockDecoding, blockCapacity: Int) {
            self.decoder = decoder
            free = [DecodedBlock(initialCapacity: blockCapacity), DecodedBlock(initialCapacity: blockCapacity)]
        }

        /// The decoding thread: fills free blocks until the stream ends, fails or is no longer
        /// wanted; then lets the decoder go (closing its source's file) and says it has stopped.
        func produce() {
            fill()
            decoder = nil
            lock.withLock {
                running = false
                lock.broadcast()
            }
        }

        private func fill() {
            guard let decoder else { return }
            while true {
                let taken: DecodedBlock? = lock.withLock {
                    while free.isEmpty && !cancelled { lock.wait() }
                    return cancelled ? nil : free.removeLast()
                }
                guard let block = taken else { return }
                block.reset(startOffset: decoder.decodedBytes)
                do {
                    try decoder.decode(atLeast: DecodedStream.blockTarget, into: block)
                } catch {
                    lock.withLock {
                        failure = error
                        lock.broadcast()
                    }
                    return
                }
                let ended = block.count == 0
                lock.withLock {
                    ready.append(block)
                    lock.broadcast()
                }
                if ended { return }
            }
        }

        func next() throws(PayloadError) -> DecodedBlock {
            let outcome: Result<DecodedBlock, PayloadError> = lock.withLock {
                while ready.isEmpty && failure == nil && running { lock.wait() }
                if !ready.isEmpty { return .success(ready.removeFirst()) }
                return .failure(failure ?? .inputFailed("the Payload's decoding thread ended early"))
            }
            return try outcome.get()
        }

        func recycle(_ block: DecodedBlock) {
            lock.withLock {
                free.append(block)
                lock.broadcast()
            }
        }

        /// Asks the decoding thread to stop and waits until it has.
        func stop() {
            lock.withLock {
                cancelled = true
                lock.broadcast()
                while running { lock.wait() }
            }
        }
    }
}
