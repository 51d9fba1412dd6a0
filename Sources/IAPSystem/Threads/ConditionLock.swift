#if canImport(Glibc)
    import Glibc
#endif

/// A mutex with one condition variable (pthread), for threads that wait for work.
/// `@unchecked Sendable`: it is the lock; its two pthread objects are allocated once, never moved,
/// and touched only through `pthread_mutex_*` and `pthread_cond_*`, which are made for sharing.
package final class ConditionLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    package init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        condition.deallocate()
    }

    /// Runs `body` holding the lock.
    package func withLock<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Waits for a signal or broadcast; call only inside `withLock`.
    package func wait() { pthread_cond_wait(condition, mutex) }

    /// Waits for a signal or broadcast, or at most `seconds`; call only inside `withLock`.
    package func wait(seconds: Double) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let span = max(0, min(seconds, 3600))
        var nanoseconds = Int(now.tv_nsec) + Int((span - span.rounded(.down)) * 1e9)
        var deadline = timespec(tv_sec: now.tv_sec + Int(span.rounded(.down)), tv_nsec: 0)
        if nanoseconds >= 1_000_000_000 {
            deadline.tv_sec += 1
            nanoseconds -= 1_000_000_000
        }
        deadline.tv_nsec = nanoseconds
        pthread_cond_timedwait(condition, mutex, &deadline)
    }

    /// Wakes one waiter.
    package func signal() { pthread_cond_signal(condition) }

    /// Wakes every waiter.
    package func broadcast() { pthread_cond_broadcast(condition) }
}
