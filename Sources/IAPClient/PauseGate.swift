#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Pause, resume and cancel for one download: pausing cancels the requests in flight (what they
/// fetched stays, to be resumed with a range request) and holds every worker until resumed or
/// cancelled. `@unchecked Sendable`: `paused`, `cancelled` and `waiters` are read and written only
/// under `lock`; `interrupt` is a constant `@Sendable` closure.
final class PauseGate: @unchecked Sendable {
    private let lock = ClientLock()
    private var paused = false
    private var cancelled = false
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private let interrupt: @Sendable () -> Void

    /// A gate that calls `interrupt` (cancel the requests in flight) on pause and cancel.
    init(interrupt: @escaping @Sendable () -> Void) {
        self.interrupt = interrupt
    }

    /// True while paused.
    var isPaused: Bool { lock.withLock { paused } }
    /// True once cancelled.
    var isCancelled: Bool { lock.withLock { cancelled } }

    /// Throws ``TransportError/cancelled`` while paused or once cancelled. A receiver calls it for each
    /// piece: URLSession still delivers what it had queued after a request is cancelled, and
    /// a request that started as `pause()` ran is not in the set it cancels. The piece is dropped,
    /// not counted, and asked for again on resume.
    func checkOpen() throws {
        if lock.withLock({ paused || cancelled }) { throw TransportError.cancelled }
    }

    /// Holds new requests and interrupts the ones in flight.
    func pause() {
        let changed = lock.withLock { () -> Bool in
            defer { paused = true }
            return !paused && !cancelled
        }
        if changed { interrupt() }
    }

    /// Lets the workers go on.
    func resume() {
        let waiting = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            paused = false
            defer { waiters = [] }
            return waiters
        }
        for waiter in waiting { waiter.resume() }
    }

    /// Stops for good: the workers throw ``FetchError/cancelled``.
    func cancel() {
        let waiting = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            cancelled = true
            defer { waiters = [] }
            return waiters
        }
        for waiter in waiting { waiter.resume() }
        interrupt()
    }

    /// Returns at once unless paused; then when resumed. Throws once cancelled.
    func pass() async throws(FetchError) {
        while true {
            if Task.isCancelled || isCancelled { throw .cancelled }
            if !isPaused { return }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = lock.withLock { () -> Bool in
                    if !paused || cancelled { return true }
                    waiters.append(continuation)
                    return false
                }
                if now { continuation.resume() }
            }
        }
    }
}
