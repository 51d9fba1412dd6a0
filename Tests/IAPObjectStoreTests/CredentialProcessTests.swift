import Foundation
import IAPSystem
import IAPTestSupport
import Testing

@testable import IAPObjectStore

/// A profile's `credential_process`, run as the AWS CLI runs it, against the tests' SeaweedFS:
/// its keys sign requests, it runs again only when its credentials near their `Expiration`, and
/// what it prints never reaches a message when it fails.
@Suite(.enabled(if: SeaweedServer.isInstalled, SeaweedServer.skipReason)) struct CredentialProcessTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iapkg-process-\(UUID().uuidString)")
        .path

    /// A config file whose default profile runs a script that counts its runs in `runs` and prints
    /// `document` (exit `status`); the environment that reads it, for `server`.
    func environment(printing document: String, status: Int = 0, server: SeaweedServer) throws -> AWSEnvironment {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let script = folder + "/print credentials.sh"
        try "#!/bin/sh\necho run >> \"$1\"\ncat <<'JSON'\n\(document)\nJSON\nexit \(status)\n".write(
            toFile: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script)
        try "[default]\ncredential_process = \"\(script)\" '\(folder)/runs'\n".write(
            toFile: folder + "/config", atomically: true, encoding: .utf8)
        var variables = server.environment()
        variables["AWS_ACCESS_KEY_ID"] = nil
        variables["AWS_SECRET_ACCESS_KEY"] = nil
        variables["AWS_CONFIG_FILE"] = folder + "/config"
        variables["AWS_SHARED_CREDENTIALS_FILE"] = folder + "/no-credentials"
        return AWSEnvironment(variables)
    }

    /// How many times the script ran.
    var runs: Int {
        ((try? String(contentsOfFile: folder + "/runs", encoding: .utf8)) ?? "").split(separator: "\n").count
    }

    static func document(expiring expiration: String) -> String {
        """
        {"Version": 1, "AccessKeyId": "\(SeaweedServer.writer.accessKey)", \
        "SecretAccessKey": "\(SeaweedServer.writer.secretKey)", "Expiration": "\(expiration)"}
        """
    }

    @Test func itsKeysSignRequestsAndItRunsAgainOnlyNearTheirExpiration() throws {
        let fixture = try S3ServerFixture()
        let lasting = try environment(printing: Self.document(expiring: "2099-01-01T00:00:00Z"), server: fixture.server)
        let client = try S3Client(location: try S3Location("s3://\(SeaweedServer.bucket)"), environment: lasting)
        try client.put(fixture.key("by-process"), bytes: [1, 2, 3])
        #expect(try client.get(fixture.key("by-process")).bytes == [1, 2, 3])
        _ = try client.head(fixture.key("by-process"))
        #expect(runs == 1)
        #expect("\(try client.credentials.current())".contains("credential_process of profile default"))

        // Credentials that expire within the minute are read again before each request.
        let soon = CalendarTimeText.utc(WallClock.now().seconds + 30)
        try FileManager.default.removeItem(atPath: folder + "/runs")
        let expiring = try environment(printing: Self.document(expiring: soon), server: fixture.server)
        let renewing = try S3Client(location: try S3Location("s3://\(SeaweedServer.bucket)"), environment: expiring)
        for _ in 0..<3 { _ = try renewing.head(fixture.key("by-process")) }
        #expect(runs == 3)
    }

    @Test func aFailingOrGarbledProcessIsAClearErrorWithoutItsOutput() throws {
        let server = try SeaweedServer.shared()
        let secret = SeaweedServer.writer.secretKey
        let cases: [(String, Int, String)] = [
            (Self.document(expiring: "2099-01-01T00:00:00Z"), 3, "ended with exit status 3"),
            ("AccessKeyId=x SecretAccessKey=\(secret)", 0, "printed no JSON document"),
            (Self.document(expiring: "tomorrow \(secret)"), 0, "printed an Expiration that is not an ISO 8601"),
            (
                Self.document(expiring: "2099-01-01T00:00:00Z").replacingOccurrences(of: "1,", with: "2,"), 0,
                "Version 2"
            ),
        ]
        for (document, status, message) in cases {
            let environment = try environment(printing: document, status: status, server: server)
            #expect {
                try environment.credentials()
            } throws: { error in
                let text = "\(error)"
                return text.contains(message) && text.contains("print credentials.sh") && !text.contains(secret)
                    && (error as? S3Error)?.kind == .invalidConfiguration
            }
        }
    }

    @Test func theCommandLineIsSplitAsAShellSplitsWordsAndTheExpirationReadAsUTC() {
        #expect(
            CredentialProcess.split(#"/usr/bin/tool  --profile 'a b' "c \"d\"" e\ f"#)
                == ["/usr/bin/tool", "--profile", "a b", #"c "d""#, "e f"])
        #expect(UTCTimestamp.seconds("2026-11-28T13:00:00Z") == 1_795_870_800)
        #expect(UTCTimestamp.seconds("2026-11-28T13:00:00.123+00:00") == 1_795_870_800)
        for bad in ["2026-11-28", "2026-11-28T13:00:00+02:00", "2026-13-28T13:00:00Z", "tomorrow at noon, UTC"] {
            #expect(UTCTimestamp.seconds(bad) == nil, "\(bad)")
        }
    }
}

/// ISO 8601 UTC text of a time, as a credential process prints it.
enum CalendarTimeText {
    static func utc(_ seconds: Int64) -> String {
        let time = WallClock.utc(seconds)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02dZ", time.year, time.month, time.day, time.hour, time.minute,
            time.second)
    }
}
