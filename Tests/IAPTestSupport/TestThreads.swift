import Foundation
import Testing

/// Eight threads of its own that run test bodies, as a task executor. Swift Testing runs tests on
/// the concurrency pool, one thread per core (two here); an end-to-end test spends most of its time
/// blocked (waiting for the `iapkg` it started, for an fsync, for a service to settle), and two
/// blocked tests left both cores idle while the other tests queued. Here a blocked test holds one of
/// eight threads, and the cores stay busy with the others' children. Suites whose tests are `async`
/// and await their waits (serve, fetch, the store races) stay on the pool: the tasks they start
/// would inherit this executor and queue behind other tests, too late for a deadline (a download's
/// first bytes were seen to wait over 30 s so under AddressSanitizer).
package final class TestThreads: TaskExecutor, @unchecked Sendable {
    /// The threads every `.onTestThreads` suite shares.
    package static let shared = TestThreads(count: 8)

    /// `jobs[head...]` waits to run; guarded by `condition`'s lock.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var head = 0

    private init(count: Int) {
        for index in 0..<count {
            let thread = Thread { [unowned self] in self.work() }
            thread.name = "test-thread-\(index)"
            thread.start()
        }
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// One thread's loop: the oldest waiting job, run to its next suspension, for ever.
    private func work() {
        while true {
            condition.lock()
            while head == jobs.count { condition.wait() }
            let job = jobs[head]
            head += 1
            if head == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                head = 0
            }
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}

/// Runs every test of a suite (each case of a parameterised one) on `TestThreads`.
package struct OnTestThreads: SuiteTrait, TestTrait, TestScoping {
    package var isRecursive: Bool { true }

    package func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? { testCase == nil ? nil : self }

    package func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withTaskExecutorPreference(TestThreads.shared) { try await function() }
    }
}

extension Trait where Self == OnTestThreads {
    /// The suite's tests block (on child processes, fsync, clocks): run them on `TestThreads`.
    package static var onTestThreads: Self { OnTestThreads() }
}
