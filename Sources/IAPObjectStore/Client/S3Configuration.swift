/// How a client reaches its store: region, endpoint, retries, and how often credentials are read again.
package struct S3Configuration: Sendable, Equatable {
    /// The signing region (`us-east-1` unless set).
    package var region: String
    /// Where requests go.
    package var endpoint: S3Endpoint
    /// How retryable failures are tried again.
    package var retry: S3RetryPolicy
    /// Seconds before credentials are resolved again (a long-running serve or gate whose session
    /// credentials are renewed on disk or in its environment).
    package var credentialsLifetime: Double

    /// A configuration from its parts.
    package init(
        region: String, endpoint: S3Endpoint, retry: S3RetryPolicy = S3RetryPolicy(), credentialsLifetime: Double = 300
    ) {
        self.region = region
        self.endpoint = endpoint
        self.retry = retry
        self.credentialsLifetime = credentialsLifetime
    }
}

/// Exponential backoff with full jitter: attempt n waits a random time up to
/// `min(maximumDelay, baseDelay * 2^(n-1))`, at most `attempts` tries in all.
package struct S3RetryPolicy: Sendable, Equatable {
    /// Tries in all, the first included (at least 1).
    package var attempts: Int
    /// Seconds: the cap of the first wait.
    package var baseDelay: Double
    /// Seconds: no wait is longer.
    package var maximumDelay: Double

    /// A policy from its parts; by default 5 tries waiting up to 0.2, 0.4, 0.8 and 1.6 s.
    package init(attempts: Int = 5, baseDelay: Double = 0.2, maximumDelay: Double = 5) {
        self.attempts = max(1, attempts)
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
    }

    /// The seconds to wait before try `attempt + 1`, after `attempt` (1-based) failed.
    package func delay(after attempt: Int) -> Double {
        let cap = min(maximumDelay, baseDelay * Double(1 << min(attempt - 1, 20)))
        return Double.random(in: 0...cap)
    }
}
