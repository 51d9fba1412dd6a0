import Foundation
import IAPSystem
import IAPTestSupport

@testable import IAPObjectStore

/// Clients of the tests' SeaweedFS, each test under a prefix of its own.
struct S3ServerFixture {
    let server: SeaweedServer
    let prefix = SeaweedServer.uniquePrefix()

    init() throws { server = try SeaweedServer.shared() }

    /// A client of `bucket` as `identity` (a wrong secret when `secret` is given), trying `attempts` times.
    func client(
        _ identity: SeaweedServer.Identity = SeaweedServer.writer, secret: String? = nil,
        bucket: String = SeaweedServer.bucket, attempts: Int = 3
    ) throws -> S3Client {
        var environment = server.environment(identity)
        if let secret { environment["AWS_SECRET_ACCESS_KEY"] = secret }
        var configuration = try AWSEnvironment(environment).configuration()
        configuration.retry = S3RetryPolicy(attempts: attempts, baseDelay: 0.05, maximumDelay: 0.2)
        return try S3Client(
            bucket: bucket, configuration: configuration,
            credentials: S3CredentialSource(environment: AWSEnvironment(environment)))
    }

    /// `name` under this test's prefix.
    func key(_ name: String) -> String { prefix + "/" + name }

    /// A file in a new temporary folder holding `bytes`, opened for reading.
    static func file(_ bytes: [UInt8]) throws -> FileDescriptor {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("iapkg-s3-\(UUID().uuidString)").path
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        return try FileDescriptor.openForReading(path)
    }

    /// An empty file for writing into.
    static func emptyFile() throws -> FileDescriptor {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("iapkg-s3-\(UUID().uuidString)").path
        return try FileDescriptor.createExclusive(path, readable: true)
    }
}

/// The `S3Error` `body` throws, or nil when it throws none (or another error).
func s3Error(_ body: () throws -> Void) -> S3Error? {
    do {
        try body()
        return nil
    } catch { return error as? S3Error }
}
