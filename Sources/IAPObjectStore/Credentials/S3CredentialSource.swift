internal import IAPSystem

/// The credentials a client signs with, resolved again once they are older than a lifetime, as
/// soon as the files they come from change (a rotated key written into `~/.aws/credentials`), or
/// after the store said they expired, so a long-running serve or gate follows renewed session
/// credentials. `@unchecked Sendable`: `cached`, `resolvedAt` and `resolvedStamp` are read and
/// written only while holding `lock`; `resolve` and `stamp` are `@Sendable` closures.
package final class S3CredentialSource: @unchecked Sendable {
    private let resolve: @Sendable () throws(S3Error) -> S3Credentials
    private let stamp: @Sendable () -> String
    private let lifetime: Double
    private let lock = ConditionLock()
    private var cached: S3Credentials?
    private var resolvedAt = 0.0
    private var resolvedStamp = ""

    /// Seconds before their expiration that credentials are resolved again.
    static let expiryMargin: Int64 = 60

    /// Credentials resolved by `resolve`, at most every `lifetime` seconds unless invalidated or
    /// `stamp` (what the places they are read from look like now) changes.
    package init(
        lifetime: Double = 300, stamp: @escaping @Sendable () -> String = { "" },
        resolve: @escaping @Sendable () throws(S3Error) -> S3Credentials
    ) {
        self.lifetime = lifetime
        self.stamp = stamp
        self.resolve = resolve
    }

    /// Always the same credentials (tests, a caller that resolves them itself).
    package convenience init(fixed credentials: S3Credentials) {
        self.init(lifetime: .infinity) { () throws(S3Error) in credentials }
    }

    /// The credentials as the AWS tools find them in `environment` (and the files it names, read
    /// again whenever they change).
    package convenience init(environment: AWSEnvironment, lifetime: Double = 300) {
        self.init(
            lifetime: lifetime, stamp: { environment.settingsStamp() },
            resolve: { () throws(S3Error) in try environment.credentials() })
    }

    /// The current credentials, resolved again when older than the lifetime, within a minute of
    /// their expiration, when their files changed, or when invalidated.
    package func current() throws(S3Error) -> S3Credentials {
        let now = MonotonicClock.seconds()
        let place = stamp()
        let fresh: S3Credentials? = lock.withLock {
            guard let cached, now - resolvedAt < lifetime, resolvedStamp == place,
                cached.expiration.map({ $0 - Self.expiryMargin > WallClock.now().seconds }) ?? true
            else { return nil }
            return cached
        }
        if let fresh { return fresh }
        let credentials = try resolve()
        lock.withLock {
            cached = credentials
            resolvedAt = now
            resolvedStamp = place
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
