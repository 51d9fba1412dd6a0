import Foundation
import Testing

@testable import IAPObjectStore

/// Keys rotated in the credentials file are used from the next request on, long before the
/// source's lifetime is up; unchanged files are not read again.
@Suite struct CredentialRotationTests {
    @Test func aRotatedKeyInTheCredentialsFileIsReadAtTheNextRequest() throws {
        let files = try AWSEnvironmentTests.files(
            credentials: "[default]\naws_access_key_id = AKIDOLD\naws_secret_access_key = old-secret\n", config: "")
        let environment = AWSEnvironment([
            "AWS_SHARED_CREDENTIALS_FILE": files.credentials, "AWS_CONFIG_FILE": files.config, "HOME": "/nonexistent",
        ])
        let source = S3CredentialSource(environment: environment, lifetime: 3600)
        #expect(try source.current().accessKeyID == "AKIDOLD")
        let stamp = environment.settingsStamp()
        #expect(environment.settingsStamp() == stamp)
        try "[default]\naws_access_key_id = AKIDNEW\naws_secret_access_key = new-secret-longer\n".write(
            toFile: files.credentials, atomically: true, encoding: .utf8)
        #expect(environment.settingsStamp() != stamp)
        let renewed = try source.current()
        #expect(renewed.accessKeyID == "AKIDNEW" && renewed.secretAccessKey == "new-secret-longer")
        // A removed file is a change too: the credentials are then looked for again, and missing.
        try FileManager.default.removeItem(atPath: files.credentials)
        #expect(throws: S3Error.self) { try source.current() }
    }

    @Test func unchangedFilesAreNotReadAgainWithinTheLifetime() throws {
        let reads = ReadCounter()
        let source = S3CredentialSource(
            lifetime: 3600, stamp: { "same" },
            resolve: { () throws(S3Error) in
                _ = reads.next()
                return S3Credentials(accessKeyID: "AKID", secretAccessKey: "secret")
            })
        for _ in 0..<5 { _ = try source.current() }
        #expect(reads.count == 1)
    }
}
