import IAPSystem

/// Uploads running on threads of their own while one producer decodes a package: each job holds
/// its bytes in memory, and `submit` waits while the queued and running jobs hold `byteBudget`
/// bytes or more (or `width` jobs wait in the queue), so memory stays bounded whatever the package.
/// The first failure stops the rest (queued jobs are dropped, running ones finish) and is thrown
/// by the next `submit` and by `finish`, which returns only once no job runs any more. The
/// producer must call `finish` whatever happens: the threads end there.
///
/// `@unchecked Sendable`: every mutable field is read and written only inside `lock.withLock`.
final class ObjectUploadPipeline: @unchecked Sendable {
    /// One upload: a request (or a few) that blocks on the network.
    typealias Job = @Sendable () throws -> Void

    private let lock = ConditionLock()
    private let byteBudget: Int
    private let width: Int
    /// Jobs to run from `queueStart` on; a taken job's slot is emptied at once (its bytes go with the job).
    private var queue: [(bytes: Int, job: Job?)] = []
    private var queueStart = 0
    private var heldBytes = 0
    private var running = 0
    private var failure: (any Error)?
    private var closed = false
    private var workers = 0
    /// The producer waits (for room, or for the end): a job that ends wakes everyone.
    private var producerWaits = false

    /// A pipeline of `width` upload threads holding at most about `byteBudget` bytes.
    init(width: Int, byteBudget: Int) {
        self.byteBudget = byteBudget
        self.width = max(1, width)
        for _ in 0..<self.width {
            lock.withLock { workers += 1 }
            do {
                try BackgroundThread.start { [self] in work() }
            } catch {
                lock.withLock { workers -= 1 }  // fewer threads; with none, `submit` runs each job itself
                break
            }
        }
    }

    /// Queues `job`, which holds `bytes` bytes until it ends; waits while the budget is spent.
    /// Throws the first failure of any job (from then on nothing more is queued).
    func submit(bytes: Int, _ job: @escaping Job) throws {
        let runHere = try lock.withLock { () throws -> Bool in
            while failure == nil, workers > 0, !hasRoom(for: bytes) {
                producerWaits = true
                lock.wait()
            }
            producerWaits = false
            if let failure { throw failure }
            guard workers > 0 else { return true }
            queue.append((bytes, job))
            heldBytes += bytes
            lock.signal()  // one job: one worker
            return false
        }
        if runHere { try job() }
    }

    /// Waits until every queued job ran, stops the threads, and throws the first failure if any.
    func finish() throws {
        try lock.withLock {
            while workers > 0, failure == nil, queue.count > queueStart || running > 0 {
                producerWaits = true
                lock.wait()
            }
            closed = true
            lock.broadcast()
            while running > 0 {
                producerWaits = true
                lock.wait()
            }
            producerWaits = false
            if let failure { throw failure }
        }
    }

    /// Records `error` as the pipeline's failure (the first one wins) and drops the queued jobs.
    func fail(_ error: any Error) {
        lock.withLock { record(error) }
    }

    private func hasRoom(for bytes: Int) -> Bool {
        (heldBytes == 0 || heldBytes + bytes <= byteBudget) && queue.count - queueStart < width
    }

    private func record(_ error: any Error) {
        if failure == nil { failure = error }
        for index in queueStart..<queue.count { heldBytes -= queue[index].bytes }
        queue.removeAll()
        queueStart = 0
        lock.broadcast()
    }

    /// A worker thread: takes jobs until the pipeline is closed.
    private func work() {
        while let (bytes, job) = next() {
            var error: (any Error)?
            do { try job() } catch let thrown { error = thrown }
            lock.withLock {
                running -= 1
                heldBytes -= bytes
                if let error { record(error) }
                if producerWaits { lock.broadcast() }
            }
        }
    }

    /// The next job (counted as running), or nil once the pipeline is closed.
    private func next() -> (Int, Job)? {
        lock.withLock {
            while queueStart == queue.count {
                if closed {
                    workers -= 1
                    lock.broadcast()
                    return nil
                }
                lock.wait()
            }
            let taken = queue[queueStart]
            queue[queueStart].job = nil
            queueStart += 1
            if queueStart == queue.count || queueStart >= 64 {  // emptied slots leave in batches
                queue.removeFirst(queueStart)
                queueStart = 0
            }
            guard let job = taken.job else { return nil }  // never: only slots before `queueStart` are empty
            running += 1
            return (taken.bytes, job)
        }
    }
}
