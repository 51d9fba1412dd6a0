import Foundation

/// The harness for `async` tests. Swift Testing runs tests on the concurrency pool, one thread per
/// core (two here): a test that blocks in `waitpid` or `sleep` holds one of them, and the other
/// tests wait behind it. These run the blocking part on a thread of its own and await it, so a
/// test waiting on a child or a clock leaves the pool to the others.
extension Harness {
    /// `run`, awaited: the child runs and is waited for on a thread of its own.
    @discardableResult
    package static func run(
        _ arguments: [String], in directory: String? = nil, environment: [String: String] = [:],
        stdin: Data? = nil
    ) async throws -> Result {
        try await offThePool { try run(arguments, in: directory, environment: environment, stdin: stdin) }
    }

    /// Runs `work` on a new thread (not the pool's) and awaits what it returns or throws.
    package static func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Swift.Result { try work() }) }.start()
        }
    }

    /// Lets `seconds` pass without holding a thread.
    package static func pause(_ seconds: Double) async {
        try? await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1_000_000_000))
    }
}
