/// Where a small file's verified bytes are written from, away from the thread that reads the
/// answers (``BackgroundJobs`` where AsyncHTTPClient reads them on its event loop).
protocol SmallFileWriting: Sendable {
    /// Queues `job`, which writes `bytes` bytes; throws the first failure of an earlier one.
    func submit(bytes: Int, _ job: @escaping @Sendable () throws -> Void) throws
}

#if os(Linux)
    import IAPSystem

    /// Jobs run in order on one thread of their own, while the caller goes on: small files written
    /// while the event loop reads the next answers (creating a file is most of what a small file
    /// costs, ext4's inode allocation, and on the loop it would hold up every connection), and a
    /// large download's SHA-256 (`BackgroundSHA256`). `submit` waits while `byteBudget` bytes are
    /// queued (the disk or the hash slower than the network slows the reading down); `finish` waits
    /// for every job and throws the first failure, after which the jobs still queued are dropped.
    ///
    /// `@unchecked Sendable`: every mutable field is read and written only inside `lock.withLock`.
    final class BackgroundJobs: SmallFileWriting, @unchecked Sendable {
        /// One job (a write and what follows it: links to the file's twins; a chunk to hash).
        typealias Job = @Sendable () throws -> Void

        /// Bytes queued at most (a single larger job is let through alone).
        let byteBudget: Int

        private let lock = ConditionLock()
        private var queue: [(bytes: Int, job: Job)] = []
        private var queueStart = 0
        private var queuedBytes = 0
        private var closed = false
        private var threadRuns = false
        private var failure: (any Error)?

        /// A queue of at most `byteBudget` bytes, with its thread; without one (the system has none
        /// to give), `submit` runs each job at once.
        init(byteBudget: Int) {
            self.byteBudget = byteBudget
            lock.withLock { threadRuns = true }
            do {
                try BackgroundThread.start { [self] in work() }
            } catch {
                lock.withLock { threadRuns = false }
            }
        }

        /// Queues `job`, which holds `bytes` bytes; waits while the budget is spent. Throws the
        /// first failure of an earlier job.
        func submit(bytes: Int, _ job: @escaping Job) throws {
            let runHere = try lock.withLock { () throws -> Bool in
                while threadRuns, failure == nil, queuedBytes > 0, queuedBytes + bytes > byteBudget {
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

        /// Waits until every queued job ran and the thread ended; throws the first failure.
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

        /// The next job, or nil once the queue is finished and nothing is queued.
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
