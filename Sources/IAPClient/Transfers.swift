#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How often and how patiently a request is tried again.
public struct RetryPolicy: Sendable, Equatable {
    /// Tries of one request in a row that make no progress before giving up.
    public var attempts: Int
    /// The wait after the first failure; doubled after each (with ±25% jitter).
    public var firstDelay: Double
    /// The longest wait between tries.
    public var maxDelay: Double

    /// A policy: `attempts` tries, waits from `firstDelay` doubling up to `maxDelay` seconds.
    public init(attempts: Int = 6, firstDelay: Double = 0.5, maxDelay: Double = 8) {
        self.attempts = max(1, attempts)
        self.firstDelay = firstDelay
        self.maxDelay = maxDelay
    }

    /// The wait before try `failures + 1`.
    func delay(after failures: Int) -> Double {
        let plain = min(maxDelay, firstDelay * Double(1 << min(failures - 1, 20)))
        return plain * Double.random(in: 0.75...1.25)
    }
}

/// A status that is not the one asked for (thrown by a receiver, judged by the retry loop).
struct StatusError: Error {
    var status: Int
}

/// Requests with retries: the documents into memory, files into part files resumed by range.
struct Transfers: Sendable {
    let http: HTTPExchange
    let gate: PauseGate
    let meter: ProgressMeter
    let policy: RetryPolicy

    /// Runs `attempt` until it succeeds, retrying network failures and 408, 429 and 5xx answers
    /// with backoff; a pause interrupts it without counting as a failure.
    func retrying<T>(_ url: URL, _ attempt: () async throws -> T) async throws(FetchError) -> T {
        var failures = 0
        while true {
            try await gate.pass()
            let before = meter.bytesFetched
            do {
                return try await attempt()
            } catch {
                if Task.isCancelled || gate.isCancelled { throw .cancelled }
                if gate.isPaused { continue }
                let (mapped, transient) = Self.judge(error, url: url)
                guard transient else { throw mapped }
                if meter.bytesFetched > before { failures = 0 }
                failures += 1
                if failures >= policy.attempts { throw mapped }
                try? await Task.sleep(nanoseconds: UInt64(policy.delay(after: failures) * 1e9))
            }
        }
    }

    /// The error to report for `error`, and whether trying again may help.
    static func judge(_ error: Error, url: URL) -> (FetchError, Bool) {
        switch error {
        case let error as FetchError: return (error, false)
        case let error as StatusError:
            let transient = error.status == 408 || error.status == 429 || error.status >= 500
            return (.http(url.absoluteString, error.status), transient)
        case let error as TransportError: return (.network(url.absoluteString, error.description), true)
        default: return (.network(url.absoluteString, "\(error)"), true)
        }
    }

    /// The body of `url` (status 200), at most `limit` bytes.
    func document(_ url: URL, limit: Int) async throws(FetchError) -> Data {
        try await retrying(url) {
            var body = Data()
            _ = try await http.get(url, headers: [:]) { [gate] event in
                try gate.checkOpen()
                switch event {
                case .response(let response):
                    guard response.statusCode == 200 else { throw StatusError(status: response.statusCode) }
                case .data(let piece):
                    guard body.count + piece.count <= limit else {
                        throw FetchError.refused(url.lastPathComponent, "it is larger than \(limit) bytes")
                    }
                    body.append(contentsOf: piece)
                }
            }
            return body
        }
    }
}
