#if os(Linux)
    import Foundation
    import Testing

    @testable import IAPClient

    /// Jobs on the queue's thread (small files' writes, chunks to hash): all of them run, in order,
    /// before `finish` returns; the first failure comes back from `finish` (and from the next
    /// `submit`), and the jobs still queued then are dropped.
    @Suite struct BackgroundJobsTests {
        /// Records what ran, from the writer's thread.
        final class Log: @unchecked Sendable {
            private let lock = NSLock()
            private var entries: [Int] = []
            func add(_ value: Int) { lock.withLock { entries.append(value) } }
            var all: [Int] { lock.withLock { entries } }
        }

        struct Failed: Error, Equatable { let number: Int }

        @Test func everyWriteRunsInOrderBeforeFinishReturns() throws {
            let writer = BackgroundJobs(byteBudget: 8 << 20)
            let log = Log()
            // More bytes than the budget: submit waits for room rather than failing or holding it all.
            for number in 0..<500 {
                try writer.submit(bytes: writer.byteBudget / 100) { log.add(number) }
            }
            try writer.finish()
            #expect(log.all == Array(0..<500))
        }

        @Test func theFirstFailureIsThrownAndLaterWritesAreDropped() throws {
            let writer = BackgroundJobs(byteBudget: 8 << 20)
            let log = Log()
            let gate = DispatchSemaphore(value: 0)
            try writer.submit(bytes: 1) {
                gate.wait()
                throw Failed(number: 1)
            }
            try writer.submit(bytes: 1) { log.add(2) }
            gate.signal()
            #expect(throws: Failed(number: 1)) { try writer.finish() }
            #expect(log.all.isEmpty)
            #expect(throws: Failed(number: 1)) { try writer.submit(bytes: 1) { log.add(3) } }
            #expect(log.all.isEmpty)
        }
    }
#endif
