internal import IAPSystem

/// Runs requests numbered 0..<count on up to `width` threads of their own (requests block on the
/// network, so they do not take Dispatch's few worker threads); the first failure stops handing
/// out more, the ones in flight finish, and that failure is thrown.
enum ParallelRequests {
    /// The results of `body` for 0..<count, in order.
    static func run<Value: Sendable>(
        count: Int, width: Int, _ body: @escaping @Sendable (Int) throws(S3Error) -> Value
    ) throws(S3Error) -> [Value] {
        let queue = WorkQueue<Value>(count: count)
        let workers = (0..<min(max(1, width), count)).map { _ in
            ConcurrentResult { () -> S3Error? in
                while let index = queue.next() {
                    do throws(S3Error) {
                        queue.finish(index, try body(index))
                    } catch {
                        queue.stop()
                        return error
                    }
                }
                return nil
            }
        }
        let failures = workers.compactMap { $0.value() }
        if let failure = failures.first { throw failure }
        return queue.results
    }
}

/// The indices still to run and the results made, shared by the worker threads.
/// `@unchecked Sendable`: `lock` (a ConditionLock) guards `nextIndex`, `stopped` and `made`, which are
/// read and written only inside `lock.withLock`; `count` is a constant set in `init`.
private final class WorkQueue<Value: Sendable>: @unchecked Sendable {
    private let lock = ConditionLock()
    private let count: Int
    private var nextIndex = 0
    private var stopped = false
    private var made: [Int: Value] = [:]

    init(count: Int) { self.count = count }

    /// The next index, or nil when none is left or a request failed.
    func next() -> Int? {
        lock.withLock {
            guard !stopped, nextIndex < count else { return nil }
            defer { nextIndex += 1 }
            return nextIndex
        }
    }

    /// Records the result of `index`.
    func finish(_ index: Int, _ value: Value) { lock.withLock { made[index] = value } }

    /// Stops handing out indices.
    func stop() { lock.withLock { stopped = true } }

    /// The results, in index order (all of them once every worker has ended without a failure).
    var results: [Value] { lock.withLock { (0..<count).compactMap { made[$0] } } }
}
