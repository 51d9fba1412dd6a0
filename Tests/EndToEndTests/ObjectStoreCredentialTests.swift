import Foundation
import IAPPurchase
import IAPTestSupport
import Testing

/// Keys rotated under a running `serve --into s3://` and `gate --root s3://`, against a SeaweedFS of
/// the test's own: the old keys removed from the server (which reads its identities only when it
/// starts, so it is restarted) and the new ones written into the credentials files the two were
/// started with (`AWS_SHARED_CREDENTIALS_FILE`). Neither is restarted; serve retries a package the
/// store refused meanwhile instead of rejecting it, and both sign with the new keys once the files
/// hold them.
@Suite(.serialized, .enabled(if: SeaweedServer.isInstalled, SeaweedServer.skipReason))
struct ObjectStoreCredentialTests {
    static let product = "com.example.bucket.rotated"
    static let publisher = [
        SeaweedServer.Identity(accessKey: "IAPKGROTATEPUB1", secretKey: "publisher-secret-one-7Hq2"),
        SeaweedServer.Identity(accessKey: "IAPKGROTATEPUB2", secretKey: "publisher-secret-two-9Xw4"),
    ]
    static let viewer = [
        SeaweedServer.Identity(accessKey: "IAPKGROTATEVIEW1", secretKey: "viewer-secret-one-3Kd8"),
        SeaweedServer.Identity(accessKey: "IAPKGROTATEVIEW2", secretKey: "viewer-secret-two-5Rm1"),
    ]
    let scratch = ScratchFolder()

    /// The identities of key generation `index`: a publisher (read, list, write) and a viewer (read, list).
    static func identities(_ index: Int) -> [(String, SeaweedServer.Identity, [String])] {
        [("publisher", publisher[index], ["Read", "List", "Write"]), ("viewer", viewer[index], ["Read", "List"])]
    }

    /// Writes `identity` as the default profile of the credentials file `name`.
    func writeCredentials(_ name: String, _ identity: SeaweedServer.Identity) throws {
        try scratch.write(
            name,
            "[default]\naws_access_key_id = \(identity.accessKey)\naws_secret_access_key = \(identity.secretKey)\n")
    }

    /// Credentials from the file `name` only (the keys' variables empty, as unset), for `server`.
    func environment(_ name: String, _ server: SeaweedServer) -> [String: String] {
        [
            "AWS_SHARED_CREDENTIALS_FILE": scratch.at(name), "AWS_CONFIG_FILE": scratch.at("no-config"),
            "AWS_ENDPOINT_URL": server.endpoint, "AWS_REGION": "us-east-1", "AWS_ACCESS_KEY_ID": "",
            "AWS_SECRET_ACCESS_KEY": "", "AWS_SESSION_TOKEN": "", "AWS_PROFILE": "",
        ]
    }

    @Test func serveAndGateFollowKeysRotatedInTheirCredentialsFiles() throws {
        let server = try SeaweedServer.own(in: scratch.at("weed"), identities: Self.identities(0))
        defer { server.stop() }
        try writeCredentials("publisher.ini", Self.publisher[0])
        try writeCredentials("viewer.ini", Self.viewer[0])
        let store = "s3://\(SeaweedServer.bucket)/\(SeaweedServer.uniquePrefix())"
        let incoming = scratch.at("incoming")
        try FileManager.default.createDirectory(atPath: incoming, withIntermediateDirectories: true)
        let serve = try ServeProcess(
            scratch, incoming: incoming, root: store, extra: ["--retry-seconds", "1"],
            environment: environment("publisher.ini", server))
        let first = try ServeCheck.package(scratch, product: Self.product, version: "1.0", name: "first")
        try ServeCheck.drop(first, into: incoming, as: "first.pkg")
        #expect(ServeCheck.wait(seconds: 60) { ServeCheck.events(serve, "accepted").count == 1 }, "\(serve.stderr)")
        let gate =
            gateIsBuilt ? try GateFront(scratch, store: store, environment: environment("viewer.ini", server)) : nil
        try gate?.expectDownload("1.0", signedBy: Self.viewer[0])

        // The old keys are gone from the server; the files still hold them: refused, retried, not rejected.
        try server.restart(identities: Self.identities(1))
        let second = try ServeCheck.package(scratch, product: Self.product, version: "1.1", name: "second")
        try ServeCheck.drop(second, into: incoming, as: "second.pkg")
        #expect(ServeCheck.wait(seconds: 60) { !ServeCheck.events(serve, "retrying").isEmpty }, "\(serve.stdout)")
        #expect(ServeCheck.events(serve, "accepted").count == 1 && ServeCheck.events(serve, "rejected").isEmpty)
        // The new keys land in the files: serve's next try and the gate's next URL sign with them.
        try writeCredentials("publisher.ini", Self.publisher[1])
        try writeCredentials("viewer.ini", Self.viewer[1])
        #expect(ServeCheck.wait(seconds: 60) { ServeCheck.events(serve, "accepted").count == 2 }, "\(serve.stderr)")
        try gate?.expectDownload("1.1", signedBy: Self.viewer[1])
        #expect(serve.stop() == 0)
        #expect(ServeCheck.events(serve, "rejected").isEmpty, "\(serve.stdout)")
        let listed = try Harness.run(["iapkg", "list", store], environment: environment("publisher.ini", server))
        #expect(listed.stdout.contains("\(Self.product) (current: 1.1)"), "\(listed.stdout)\(listed.stderr)")
        let said = serve.stdout + serve.stderr + listed.stdout + listed.stderr
        for identity in Self.publisher + Self.viewer { #expect(!said.contains(identity.secretKey)) }
    }
}

/// `iapkg gate --root s3://…` started with the credentials of `environment`, asked for a file with a
/// download token; the presigned URL it redirects to is fetched with curl.
final class GateFront {
    let process: ListeningProcess
    let token: String
    let port: Int

    init(_ scratch: ScratchFolder, store: String, environment: [String: String]) throws {
        let key = Array(repeating: UInt8(9), count: 32)
        try scratch.write("gate.key", Data(key), mode: 0o600)
        let pem = try Harness.run([
            "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj",
            "/CN=test anchor", "-days", "2", "-keyout", scratch.at("anchor.key"), "-out", scratch.at("anchor.pem"),
        ])
        #expect(pem.status == 0, "\(pem.stderr)")
        process = try ListeningProcess(
            [
                Harness.binary, "gate", "--root", store, "--listen", "127.0.0.1:0", "--bundle-id", "com.example.game",
                "--trust-anchor", scratch.at("anchor.pem"), "--key-file", scratch.at("gate.key"),
            ], environment: environment, lineFromStderr: true)
        port = process.port ?? 0
        token = try DownloadTokens(key: key).issue(product: ObjectStoreCredentialTests.product, ttl: 600).token
    }

    deinit { process.stop() }

    /// The gate redirects a request for `version`'s data file to a URL signed by `identity` that
    /// the store answers with the file.
    func expectDownload(_ version: String, signedBy identity: SeaweedServer.Identity) throws {
        let product = ObjectStoreCredentialTests.product
        let asked = try Harness.run([
            "curl", "-s", "-o", "/dev/null", "-w", "%{http_code} %{redirect_url}", "-H",
            "Authorization: Bearer \(token)",
            "http://127.0.0.1:\(port)/v1/content/\(product)/\(version)/Contents/data.txt",
        ])
        let answer = asked.stdout.split(separator: " ", maxSplits: 1).map(String.init)
        #expect(answer.first == "307", "\(asked.stdout)")
        let location = answer.count > 1 ? answer[1] : ""
        #expect(location.contains("X-Amz-Credential=\(identity.accessKey)"), "\(location)")
        let fetched = try Harness.run(["curl", "-sf", location])
        #expect(fetched.status == 0 && fetched.stdout == "\(product) \(version)\n", "\(fetched.stdout)")
    }
}
