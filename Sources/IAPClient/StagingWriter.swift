/// Where a small file's verified bytes are written from, away from the thread that reads the
/// answers (``StagingWriter`` where AsyncHTTPClient reads them on its event loop).
protocol SmallFileWriting: Sendable {
    /// Queues `job`, which writes `bytes` bytes; throws the first failure of an earlier one.
    func submit(bytes: Int, _ job: @escaping @Sendable () throws -> Void) throws
}

#if canImport(AsyncHTTPClient)
    import IAPSystem

    /// Small files written on a thread of their own while the event loop reads the next answers:
    /// creating a file is most of what a small file costs (ext4's inode allocation), and on the
    /// loop it would hold up every connection. `submit` waits while `byteBudget` bytes wait to be
    /// written (the disk slower than the network slows the reading down); `finish` waits for every
    /// write and throws the first failure, after which the writes still queued are dropped.
    ///
    /// `@unchecked Sendable`: every mutable field is read and written only inside `lock.withLock`.
    final class StagingWriter: SmallFileWriting, @unchecked Sendable {
        /// One write (and what follows it: links to the file's twins).
        typealias Job = @Sendable () throws -> Void

        /// Bytes queued at most (a single larger write is let through alone).
        static let byteBudget = 8 << 20

        private let lock = ConditionLock()
        private var queue: [(bytes: Int, job: Job)] = []
        private var queueStart = 0
        private var queuedBytes = 0
        private var closed = false
        private var threadRuns = false
        private var failure: (any Error)?

        /// A writer with its thread; without one (the system has none to give), `submit` writes at once.
        init() {
            lock.withLock { threadRuns = true }
            do {
                try BackgroundThread.start { [self] in work() }
            } catch {
                lock.withLock { threadRuns = false }
            }
        }

        /// Queues `job`, which writes `bytes` bytes; waits while the budget is spent. Throws the
        /// first failure of an earlier write.
        func submit(bytes: Int, _ job: @escaping Job) throws {
            let runHere = try lock.withLock { () throws -> Bool in
                while threadRuns, failure == nil, queuedBytes > 0, queuedBytes + bytes > Self.byteBudget {
                    lock.wait()
                }
                if let failure { throw failure }
                guard threadRuns else { return true }
                queue.append((bytes, job))
                queuedBytes += bytes
                lock.signal()
                return false
            }
            if runHere { try job() }
        }

        /// Waits until every queued write ran and the thread ended; throws the first failure.
        func finish() throws {
            try lock.withLock {
                closed = true
                lock.broadcast()
                while threadRuns { lock.wait() }
                if let failure { throw failure }
            }
        }

        private func work() {
            while let job = next() {
                var error: (any Error)?
                do { try job.job() } catch let thrown { error = thrown }
                lock.withLock {
                    queuedBytes -= job.bytes
                    if let error, failure == nil {
                        failure = error
                        queue.removeAll()
                        queueStart = 0
                        queuedBytes = 0
                    }
                    lock.broadcast()
                }
            }
        }

        /// The next write, or nil once the writer is finished and nothing is queued.
        private func next() -> (bytes: Int, job: Job)? {
            lock.withLock {
                while queueStart == queue.count {
                    if closed {
                        threadRuns = false
                        lock.broadcast()
                        return nil
                    }
                    lock.wait()
                }
                let taken = queue[queueStart]
                queueStart += 1
                if queueStart == queue.count || queueStart >= 256 {
                    queue.removeFirst(queueStart)
                    queueStart = 0
                }
                return taken
            }
        }
    }
#endif
