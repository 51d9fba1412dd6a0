import Foundation
import IAPSystem
import IAPTestSupport
import Testing

@testable import IAPObjectStore

/// Presigned URLs, identities, wrong keys and an unreachable store against a real SeaweedFS.
@Suite(.enabled(if: SeaweedServer.isInstalled, SeaweedServer.skipReason))
struct S3AccessTests {
    /// The HTTP status and body curl gets for `url`.
    static func curl(_ url: String) throws -> (status: String, body: String) {
        let result = try Harness.run(["curl", "-s", "-o", "-", "-w", "\n%{http_code}", url])
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        return (String(lines.last ?? ""), lines.dropLast().joined(separator: "\n"))
    }

    @Test func presignedGetWorksForItsKeyUntilItExpires() throws {
        let fixture = try S3ServerFixture()
        let client = try fixture.client(SeaweedServer.reader)
        let writer = try fixture.client()
        let key = fixture.key("Contents/level 1+ü.dat")
        try writer.put(key, bytes: Array("presigned bytes".utf8))
        try writer.put(fixture.key("other"), bytes: Array("other".utf8))
        let url = try client.presignedGetURL(key, expiresIn: 60)
        let fetched = try Self.curl(url)
        #expect(fetched.status == "200")
        #expect(fetched.body == "presigned bytes")
        let ranged = try Harness.run(["curl", "-s", "-r", "10-14", url])
        #expect(ranged.stdout == "bytes")
        let elsewhere = url.replacingOccurrences(of: URIEncoding.encodePath(key), with: fixture.key("other"))
        #expect(elsewhere != url)
        #expect(try Self.curl(elsewhere).status == "403")
        let past = SigningTime(seconds: WallClock.now().seconds - 120)
        let expired = try client.presignedGetURL(key, expiresIn: 60, at: past)
        #expect(try Self.curl(expired).status == "403")
        #expect(s3Error { _ = try client.presignedGetURL(key, expiresIn: 0) }?.kind == .invalidConfiguration)
    }

    @Test func theReadOnlyIdentityCannotWrite() throws {
        let fixture = try S3ServerFixture()
        let reader = try fixture.client(SeaweedServer.reader)
        let key = fixture.key("refused")
        let error = s3Error { try reader.put(key, bytes: [1]) }
        #expect(error?.kind == .accessDenied)
        #expect(error?.description.contains("bucket policy") == true)
        try fixture.client().put(key, bytes: [2])
        #expect(try reader.get(key).bytes == [2])
        #expect(s3Error { try reader.delete(key) }?.kind == .accessDenied)
    }

    @Test func aWrongSecretIsCalledInvalidCredentialsWithoutShowingIt() throws {
        let fixture = try S3ServerFixture()
        let secret = "wrong-secret-Vb81xQz0pLm3"
        let client = try fixture.client(secret: secret)
        let key = fixture.key("x")
        let errors = [
            s3Error { try client.put(key, bytes: [1]) }, s3Error { _ = try client.get(key) },
            s3Error { _ = try client.list(prefix: fixture.prefix) },
        ]
        for error in errors {
            #expect(error?.kind == .invalidCredentials)
            let text = error.map { "\($0) \(String(reflecting: $0))" } ?? ""
            #expect(text.contains("AWS_SECRET_ACCESS_KEY"))
            #expect(text.contains("s3://iapkg-test"))
            #expect(!text.contains(secret))
        }
        let credentials = try client.credentials.current()
        #expect(!"\(credentials) \(String(reflecting: credentials))".contains(secret))
    }

    @Test func credentialsTheStoreRefusesAreReadAgainOnce() throws {
        let fixture = try S3ServerFixture()
        let reads = ReadCounter()
        let good = S3Credentials(
            accessKeyID: SeaweedServer.writer.accessKey, secretAccessKey: SeaweedServer.writer.secretKey)
        let source = S3CredentialSource(lifetime: 3600) { () throws(S3Error) in
            var stale = good
            stale.secretAccessKey = "expired-secret"
            return reads.next() == 1 ? stale : good
        }
        let configuration = try AWSEnvironment(fixture.server.environment()).configuration()
        let client = try S3Client(bucket: SeaweedServer.bucket, configuration: configuration, credentials: source)
        try client.put(fixture.key("renewed"), bytes: [9])
        #expect(reads.count == 2)
    }

    @Test func anUnreachableStoreIsRetriedThenCalledUnavailable() throws {
        let environment = [
            "AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": "secret", "AWS_ENDPOINT_URL": "http://127.0.0.1:9",
        ]
        var configuration = try AWSEnvironment(environment).configuration()
        configuration.retry = S3RetryPolicy(attempts: 3, baseDelay: 0.01, maximumDelay: 0.02)
        let client = try S3Client(
            bucket: "iapkg-test", configuration: configuration,
            credentials: S3CredentialSource(environment: AWSEnvironment(environment)))
        let error = s3Error { _ = try client.head("k") }
        #expect(error?.kind == .unavailable)
        #expect(error?.isRetryable == true)
        #expect(error?.description.contains("http://127.0.0.1:9") == true)
        #expect(error?.description.contains("AWS_ENDPOINT_URL") == true)
    }
}

/// Counts resolutions across threads. `@unchecked Sendable`: `value` is touched only under `lock`.
final class ReadCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    /// Counts one more and returns the new count.
    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }

    /// The count so far.
    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}
