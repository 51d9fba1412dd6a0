/// A value shared between threads, read and changed only while holding its lock (a pthread mutex,
/// through ``ConditionLock``). Where `Synchronization.Mutex` would do, this is used instead in code
/// the sanitizer builds run: ThreadSanitizer does not see Mutex's futex hand-off on Linux and
/// reports every access it guards, once two threads contend, as a race (a buffer pool in a CI run,
/// 2026-11-29), whereas it follows pthread mutexes.
/// `@unchecked Sendable`: `value` is touched only inside `withLock`, which holds the lock.
package final class Locked<Value>: @unchecked Sendable {
    private let lock = ConditionLock()
    private var value: Value

    /// Shares `value`.
    package init(_ value: Value) { self.value = value }

    /// Runs `body` on the value, holding the lock; what `body` returned or threw.
    package func withLock<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try lock.withLock { () throws(Failure) -> Result in try body(&self.value) }
    }
}
