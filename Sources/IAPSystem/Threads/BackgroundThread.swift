#if canImport(Glibc)
    import Glibc
#endif

/// Runs a closure on a thread of its own: for work that blocks (waits on semaphores), which must
/// not tie up one of Dispatch's few worker threads.
package enum BackgroundThread {
    private final class Box {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// Starts `body` on a new detached thread; throws if the system has no thread to give.
    package static func start(_ body: @escaping @Sendable () -> Void) throws {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(
            &thread, nil,
            { context in
                guard let context else { return nil }  // never: pthread_create passes `box` through
                let box = Unmanaged<Box>.fromOpaque(context).takeRetainedValue()
                box.body()
                return nil
            }, box)
        guard status == 0 else {
            Unmanaged<Box>.fromOpaque(box).release()
            throw SystemError("start a thread", code: status)
        }
        pthread_detach(thread)
    }
}
