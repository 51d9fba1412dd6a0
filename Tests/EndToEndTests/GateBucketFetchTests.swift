import Foundation
import IAPClient
import IAPObjectStore
import IAPPurchase
import IAPTestSupport
import Testing

/// `iapkg gate --root s3://…` in front of a real SeaweedFS, reached through a logging proxy that
/// sends at 4 MB/s: IAPClient and `iapkg fetch` download a store published into the bucket through
/// the gate's redirects, every file verified, a paused download resumed with
/// a range request, and the storage side never sees the bearer token.
@Suite(.serialized, .enabled(if: SeaweedServer.isInstalled, SeaweedServer.skipReason))
struct GateBucketFetchTests {
    static let product = "com.example.bucket.fetch"
    static let size = 8 << 20

    /// Publishes `package` into the bucket in the version store's layout: `iapkg unpack` into a
    /// folder store, then every object of the product (`<version>/…`, `current.json`; not the
    /// folder store's own `.lock` and `current` link) uploaded with the S3 client. (`iapkg unpack
    /// --into s3://` writes the same keys once IAPKit's object store is registered in the build.)
    func publish(_ package: String, to location: S3Location, scratch: ScratchFolder, server: SeaweedServer) throws {
        let unpack = try Harness.run(["iapkg", "unpack", package, "--into", scratch.at("folder-store")])
        #expect(unpack.status == 0, "\(unpack.stderr)")
        let client = try S3Client(location: location, environment: AWSEnvironment(server.environment()))
        let root = scratch.at("folder-store/\(Self.product)")
        let files = try FileManager.default.subpathsOfDirectory(atPath: root)
        for file in files.sorted() where !file.hasPrefix(".") && !file.hasPrefix("current/") && file != "current" {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root + "/" + file, isDirectory: &isFolder), !isFolder.boolValue
            else { continue }
            let bytes = try Data(contentsOf: URL(fileURLWithPath: root + "/" + file))
            _ = try client.put(location.key("\(Self.product)/\(file)"), bytes: Array(bytes))
        }
    }

    @Test func fetchDownloadsFromTheBucketThroughTheGateWithoutTheToken() async throws {
        let server = try SeaweedServer.shared()
        let scratch = ScratchFolder()
        let large = randomBytes(Self.size)
        let folder = try scratch.contentFolder(
            "src", product: Self.product, files: ["Contents/small.txt": "small\n", "Contents/sub dir/b.txt": "b\n"])
        try large.write(to: URL(fileURLWithPath: folder + "/Contents/large.bin"))
        try InProcessBuild.package(folder, to: scratch.at("p.pkg"), level: 1)
        let store = "s3://\(SeaweedServer.bucket)/\(SeaweedServer.uniquePrefix())/live"
        try publish(scratch.at("p.pkg"), to: try S3Location(store), scratch: scratch, server: server)

        let log = scratch.at("proxy.log")
        let script = Harness.packageRoot.appendingPathComponent("Tests/Servers/logging-proxy.py").path
        let upstream = String(server.endpoint.dropFirst("http://".count))
        let proxy = try ListeningProcess(["/usr/bin/env", "python3", script, upstream, log, "4000000"])
        let proxyPort = try #require(proxy.port)
        let key = Array(repeating: UInt8(7), count: 32)
        try scratch.write("gate.key", Data(key), mode: 0o600)
        let pem = try Harness.run([
            "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj",
            "/CN=test anchor", "-days", "2", "-keyout", scratch.at("anchor.key"), "-out", scratch.at("anchor.pem"),
        ])
        #expect(pem.status == 0, "\(pem.stderr)")
        var readOnly = server.environment(SeaweedServer.reader)
        readOnly["AWS_ENDPOINT_URL"] = "http://127.0.0.1:\(proxyPort)"
        let gate = try ListeningProcess(
            [
                Harness.binary, "gate", "--root", store, "--listen", "127.0.0.1:0", "--bundle-id", "com.example.game",
                "--trust-anchor", scratch.at("anchor.pem"), "--key-file", scratch.at("gate.key"),
            ], environment: readOnly, lineFromStderr: true)
        let gatePort = try #require(gate.port, "\(gate.firstLine)")
        let base = try #require(URL(string: "http://127.0.0.1:\(gatePort)/v1/content"))
        let token = try DownloadTokens(key: key).issue(product: Self.product, ttl: 600).token

        // IAPClient, paused mid-file and resumed: the rest comes with a range request.
        let updater = ContentUpdater(
            server: base, productIdentifier: Self.product, folder: URL(fileURLWithPath: scratch.at("app")),
            token: token)
        let download = updater.download()
        let deadline = Date().addingTimeInterval(60)
        while download.currentProgress.bytesDone < 1 << 20 && Date() < deadline {
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        download.pause()
        try await Task.sleep(nanoseconds: 300_000_000)
        download.resume()
        let report = try await download.result()
        #expect(report.action == "installed" && report.version == "1.0" && report.filesFetched == 4)
        #expect(try Data(contentsOf: updater.contentsURL.appendingPathComponent("large.bin")) == large)
        #expect(try String(contentsOfFile: updater.contentsURL.path + "/sub dir/b.txt", encoding: .utf8) == "b\n")

        // `iapkg fetch` the same way, into a folder of its own.
        let fetch = try Harness.run([
            "iapkg", "fetch", base.absoluteString, Self.product, "--token", token, "--into", scratch.at("cli"),
            "--quiet",
        ])
        #expect(fetch.status == 0, "\(fetch.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.at("cli/current/Contents/large.bin"))) == large)

        // What the storage side saw: presigned requests only, never an Authorization header.
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").compactMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(lines.count >= 8)
        #expect(lines.allSatisfy { ($0["headers"] as? [String])?.contains("authorization") == false })
        #expect(lines.allSatisfy { $0["query"] as? Bool == true })
        #expect(lines.contains { $0["range"] is String && $0["status"] as? Int == 206 }, "\(lines)")
        #expect(lines.contains { ($0["path"] as? String)?.hasSuffix("/large.bin") == true })
        #expect(gate.stop() == 0)
        proxy.stop()
    }
}
