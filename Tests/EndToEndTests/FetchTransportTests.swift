import Foundation
import IAPClient
import Testing

/// The download client through what may stand between it and the files: the gate's redirect (307)
/// to an object store's presigned URL on another host, which must never see the download token,
/// with ranges and resume working through it; and an HTTP proxy from the environment (tinyproxy).
@Suite(.serialized) struct FetchTransportTests {
    static let product = "com.example.slow.redirect"
    static let size = 12 << 20

    /// A store with one version of `product` (a 12 MiB file sent at 8 MiB/s, and a small one)
    /// served by `storage`, and `front`, which answers the product's documents itself and redirects
    /// every file of a version to `storage` with 307, as `iapkg gate` does to presigned URLs.
    func publish(_ scratch: ScratchFolder) async throws -> (front: NginxServer, storage: NginxServer, large: Data)? {
        let large = try await FetchClientTests.store(scratch, product: Self.product, size: Self.size)
        guard let storage = try NginxServer(root: scratch.at("srv"), scratch: scratch) else { return nil }
        let root = scratch.at("srv")
        let site = { (port: Int) in
            """
            server {
                listen 127.0.0.1:\(port);
                root \(root);
                location ~ "^/[^/]+/(current\\.json|[0-9][0-9.]*/manifest\\.json)$" { }
                location / { return 307 http://127.0.0.1:\(storage.port)$request_uri; }
            }
            """
        }
        guard let front = try NginxServer(scratch: scratch, name: "front", site: site) else { return nil }
        return (front, storage, large)
    }

    @Test func theTokenStaysWithTheGateAndAResumeGoesThroughTheRedirect() async throws {
        let scratch = ScratchFolder()
        guard let (front, storage, large) = try await publish(scratch) else { return }
        let updater = ContentUpdater(
            server: front.base, productIdentifier: Self.product, folder: URL(fileURLWithPath: scratch.at("app")),
            token: "secret-download-token")
        let download = updater.download()
        await FetchClientTests.waitFor(download, bytes: 4 << 20)
        download.cancel()
        await #expect(throws: FetchError.cancelled) { try await download.result() }
        let report = try await updater.update()
        #expect(report.bytesResumed >= 4 << 20)
        #expect(try Data(contentsOf: updater.contentsURL.appendingPathComponent("large.bin")) == large)
        // Every file came from the storage host, through a 307 the front sent with the token.
        let redirected = front.log.filter { $0.hasPrefix("307 ") }
        #expect(redirected.contains { $0.contains("large.bin") && $0.contains("Bearer secret-download-token") })
        #expect(front.log.contains { $0.contains("current.json") && $0.contains("Bearer secret-download-token") })
        let served = storage.log.filter { $0.contains("large.bin") }
        #expect(!served.isEmpty)
        #expect(storage.log.allSatisfy { !$0.contains("secret-download-token") && $0.hasSuffix(" \"-\"") })
        // The resume asked the storage host for the rest only, with the range the client sent the front.
        #expect(served.contains { $0.hasPrefix("206 ") && $0.contains("\"bytes=") })
        #expect(redirected.contains { $0.contains("\"bytes=") })
    }

    @Test func iapkgFetchGoesThroughTheProxyTheEnvironmentNamesUnlessNoProxySaysNot() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/tinyproxy") else { return }
        let scratch = ScratchFolder()
        guard let (front, storage, large) = try await publish(scratch) else { return }
        let proxy = try TinyProxy(scratch: scratch)
        func fetch(into folder: String, _ extra: String...) -> [String] {
            ["iapkg", "fetch", front.base.absoluteString, Self.product, "--into", scratch.at(folder)] + extra
        }
        let through = try await Harness.run(
            fetch(into: "app"),
            environment: ["http_proxy": "http://127.0.0.1:\(proxy.port)", "no_proxy": "example.com"])
        #expect(through.status == 0, "\(through.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.at("app/current/Contents/large.bin"))) == large)
        // AsyncHTTPClient tunnels every request (CONNECT host:port); URLSession, the transport of the
        // builds without the web stack, hands the proxy plain requests (GET http://host:port/…).
        func wentThrough(_ port: Int) -> Bool {
            proxy.log.contains {
                $0.contains("CONNECT 127.0.0.1:\(port) ") || $0.contains("GET http://127.0.0.1:\(port)/")
            }
        }
        #expect(wentThrough(front.port), "\(proxy.log)")
        #expect(wentThrough(storage.port), "\(proxy.log)")
        let before = proxy.log.count
        let direct = try await Harness.run(
            fetch(into: "direct"),
            environment: ["http_proxy": "http://127.0.0.1:\(proxy.port)", "no_proxy": "localhost,127.0.0.1"])
        #expect(direct.status == 0, "\(direct.stderr)")
        #expect(proxy.log.count == before)
        let refused = try await Harness.run(
            fetch(into: "refused", "--attempts", "1"),
            environment: ["http_proxy": "http://127.0.0.1:\(NginxServer.freePort())"])
        #expect(refused.status == 2 && refused.stderr.contains("current.json"), "\(refused.stderr)")
        _ = storage
    }
}

/// tinyproxy on a free port of 127.0.0.1, logging every request (a CONNECT names its host and port).
final class TinyProxy {
    let process: Process
    let port = NginxServer.freePort()
    let logPath: String

    init(scratch: ScratchFolder) throws {
        logPath = scratch.at("tinyproxy.log")
        let conf = """
            Port \(port)
            Listen 127.0.0.1
            Timeout 60
            LogFile "\(logPath)"
            LogLevel Connect
            MaxClients 32
            Allow 127.0.0.1
            """
        try conf.write(toFile: scratch.at("tinyproxy.conf"), atomically: true, encoding: .utf8)
        process = try Harness.start(["/usr/bin/tinyproxy", "-d", "-c", scratch.at("tinyproxy.conf")])
        let port = port
        let ready = ServeCheck.wait(seconds: 10) {
            (try? Harness.run(["curl", "-s", "-o", "/dev/null", "http://127.0.0.1:\(port)/"]))?.status == 0
        }
        if !ready { throw CocoaError(.fileReadUnknown) }
    }

    deinit {
        // tinyproxy takes its time over SIGTERM.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// The log's lines so far.
    var log: [String] {
        ((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }
}
