/// A value computed on a thread of its own while the caller goes on; ``value()`` waits for it.
/// `@unchecked Sendable`: `result` is written once by the worker and read by waiters, both only
/// while holding `lock`.
package final class ConcurrentResult<Value: Sendable>: @unchecked Sendable {
    private let lock = ConditionLock()
    private var result: Value?

    /// Starts `body` on a new thread (or runs it here when the system has no thread to give).
    package init(_ body: @escaping @Sendable () -> Value) {
        do {
            try BackgroundThread.start { [self] in
                let value = body()
                lock.withLock {
                    result = value
                    lock.broadcast()
                }
            }
        } catch {
            result = body()
        }
    }

    /// The value, once the thread has made it.
    package func value() -> Value {
        lock.withLock {
            while true {
                if let result { return result }
                lock.wait()
            }
        }
    }
}
