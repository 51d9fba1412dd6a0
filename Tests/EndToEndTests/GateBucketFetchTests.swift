import Foundation
import IAPClient
import IAPPurchase
import IAPTestSupport
import Testing

/// `iapkg gate --root s3://…` in front of a real SeaweedFS, reached through a logging proxy that
/// sends at 4 MB/s: IAPClient and `iapkg fetch` download a store published with `iapkg unpack
/// --into s3://` through the gate's redirects, every file verified, a paused download resumed with
/// a range request, and the storage side never sees the bearer token.
@Suite(
    .serialized, .enabled(if: SeaweedServer.isInstalled, SeaweedServer.skipReason),
    .enabled(if: gateIsBuilt, "iapkg-gate is not built here (IAPKG_NO_WEB=1 builds no web stack)"))
struct GateBucketFetchTests {
    static let product = "com.example.bucket.fetch"
    static let size = 8 << 20

    @Test func fetchDownloadsFromTheBucketThroughTheGateWithoutTheToken() async throws {
        let server = try SeaweedServer.shared()
        let scratch = ScratchFolder()
        let large = randomBytes(Self.size)
        let folder = try scratch.contentFolder(
            "src", product: Self.product, files: ["Contents/small.txt": "small\n", "Contents/sub dir/b.txt": "b\n"])
        try large.write(to: URL(fileURLWithPath: folder + "/Contents/large.bin"))
        try InProcessBuild.package(folder, to: scratch.at("p.pkg"), level: 1)
        let store = "s3://\(SeaweedServer.bucket)/\(SeaweedServer.uniquePrefix())/live"
        let unpack = try await Harness.run(
            ["iapkg", "unpack", scratch.at("p.pkg"), "--into", store], environment: server.environment())
        #expect(unpack.status == 0, "\(unpack.stderr)")

        let log = scratch.at("proxy.log")
        let script = Harness.packageRoot.appendingPathComponent("Tests/Servers/logging-proxy.py").path
        let upstream = String(server.endpoint.dropFirst("http://".count))
        let proxy = try ListeningProcess(["/usr/bin/env", "python3", script, upstream, log, "4000000"])
        let proxyPort = try #require(proxy.port)
        let key = Array(repeating: UInt8(7), count: 32)
        try scratch.write("gate.key", Data(key), mode: 0o600)
        let pem = try await Harness.run([
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
        let fetch = try await Harness.run([
            "iapkg", "fetch", base.absoluteString, Self.product, "--token", token, "--into", scratch.at("cli"),
            "--quiet",
        ])
        #expect(fetch.status == 0, "\(fetch.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.at("cli/current/Contents/large.bin"))) == large)

        // What the storage side saw: presigned requests only, never an Authorization header.
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").compactMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        // The gate's own reads of current.json are signed in the Authorization header (AWS4, never a
        // bearer token); every download is a presigned URL and carries no Authorization at all.
        #expect(lines.allSatisfy { $0["bearer"] as? Bool == false })
        let downloads = lines.filter { ($0["headers"] as? [String])?.contains("user-agent") == true }
        #expect(downloads.count >= 10)
        #expect(downloads.allSatisfy { ($0["headers"] as? [String])?.contains("authorization") == false })
        #expect(downloads.allSatisfy { $0["query"] as? Bool == true })
        // Whether the pause lands inside large.bin depends on the machine's speed; every range request
        // that reached the store through the redirect (a resume) was answered with its part.
        let ranged = lines.filter { $0["range"] is String }
        #expect(ranged.allSatisfy { $0["status"] as? Int == 206 }, "\(ranged)")
        #expect(lines.contains { ($0["path"] as? String)?.hasSuffix("/large.bin") == true })
        #expect(gate.stop() == 0)
        proxy.stop()
    }
}

/// True when `iapkg-gate` was built beside the `iapkg` under test (the sanitizer builds leave the web
/// stack out, and `iapkg gate` then has no program to run).
let gateIsBuilt = FileManager.default.isExecutableFile(
    atPath: URL(fileURLWithPath: Harness.binary).deletingLastPathComponent().appendingPathComponent("iapkg-gate").path)
