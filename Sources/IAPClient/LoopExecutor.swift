#if canImport(AsyncHTTPClient)
    import NIOCore

    /// A task executor that runs its jobs on one swift-nio event loop: the download's tasks then run
    /// on the thread that reads their sockets, so an answer reaches the task that writes and hashes
    /// it without a hand-off between threads (each a wake-up, which a loaded machine delays).
    final class LoopExecutor: TaskExecutor {
        private let loop: any EventLoop

        /// The executor of `loop`.
        init(_ loop: any EventLoop) { self.loop = loop }

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            let executor = asUnownedTaskExecutor()
            loop.execute { job.runSynchronously(on: executor) }
        }
    }
#endif
