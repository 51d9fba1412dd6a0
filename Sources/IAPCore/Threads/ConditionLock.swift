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
    package func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Waits for a signal or broadcast; call only inside `withLock`.
    package func wait() { pthread_cond_wait(condition, mutex) }

    /// Wakes every waiter.
    package func broadcast() { pthread_cond_broadcast(condition) }
}
