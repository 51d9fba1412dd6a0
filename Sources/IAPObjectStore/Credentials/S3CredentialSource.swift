internal import IAPSystem

/// The credentials a client signs with, resolved again once they are older than a lifetime or
/// after the store said they expired, so a long-running serve or gate follows renewed session
/// credentials. `@unchecked Sendable`: `cached` and `resolvedAt` are read and written only while
/// holding `lock`; `resolve` is a `@Sendable` closure.
package final class S3CredentialSource: @unchecked Sendable {
    private let resolve: @Sendable () throws(S3Error) -> S3Credentials
    private let lifetime: Double
    private let lock = ConditionLock()
    private var cached: S3Credentials?
    private var resolvedAt = 0.0

    /// Credentials resolved by `resolve`, at most every `lifetime` seconds unless invalidated.
    package init(lifetime: Double = 300, resolve: @escaping @Sendable () throws(S3Error) -> S3Credentials) {
        self.lifetime = lifetime
        self.resolve = resolve
    }

    /// Always the same credentials (tests, a caller that resolves them itself).
    package convenience init(fixed credentials: S3Credentials) {
        self.init(lifetime: .infinity) { () throws(S3Error) in credentials }
    }

    /// The credentials as the AWS tools find them in `environment` (and the files it names).
    package convenience init(environment: AWSEnvironment, lifetime: Double = 300) {
        self.init(lifetime: lifetime) { () throws(S3Error) in try environment.credentials() }
    }

    /// The current credentials, resolved again when older than the lifetime or invalidated.
    package func current() throws(S3Error) -> S3Credentials {
        let now = MonotonicClock.seconds()
        let fresh: S3Credentials? = lock.withLock {
            guard let cached, now - resolvedAt < lifetime else { return nil }
            return cached
        }
        if let fresh { return fresh }
        let credentials = try resolve()
        lock.withLock {
            cached = credentials
            resolvedAt = now
        }
        return credentials
    }

    /// Forgets the cached credentials (the store called them expired or unknown): the next request
    /// resolves them again. True when the resolved ones differ from `used`, so a retry is worth it.
    package func refresh(after used: S3Credentials) -> Bool {
        lock.withLock { cached = nil }
        guard let again = try? current() else { return false }
        return again != used
    }
}
