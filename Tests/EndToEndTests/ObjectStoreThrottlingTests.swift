import Foundation
import IAPTestSupport
import Testing

/// Publishing into a real SeaweedFS through a fault injector (Tests/Servers/fault-proxy.py) that
/// answers `503 SlowDown`, drops connections before a request is forwarded, and drops them after a
/// write landed (the answer lost): `unpack` retries within the client's backoff, `serve` also
/// retries the package later as after a full disk, and the version lands exactly once, never
/// rejected. What the store really received is read from the proxy's log.
@Suite(.enabled(if: SeaweedServer.isInstalled, SeaweedServer.skipReason)) struct ObjectStoreThrottlingTests {
    static let product = "com.example.bucket.throttled"
    let scratch = ScratchFolder()

    /// A fault injector in front of the shared SeaweedFS with `rules` (method, path pattern, fault, count).
    final class FaultProxy {
        let process: ListeningProcess
        let log: String

        init(_ server: SeaweedServer, rules: [(String, String, String, Int)], log: String) throws {
            let script = Harness.packageRoot.appendingPathComponent("Tests/Servers/fault-proxy.py").path
            let json = try JSONSerialization.data(
                withJSONObject: rules.map { ["method": $0.0, "path": $0.1, "fault": $0.2, "count": $0.3] })
            let upstream = String(server.endpoint.dropFirst("http://".count))
            process = try ListeningProcess([
                "/usr/bin/env", "python3", script, upstream, log, String(decoding: json, as: UTF8.self),
            ])
            self.log = log
        }

        /// The endpoint clients use.
        var endpoint: String { "http://127.0.0.1:\(process.port ?? 0)" }

        /// Every request logged: method, path, fault (or none), the status the store gave (or none).
        var requests: [[String: Any]] {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
        }

        /// How many requests got `fault`.
        func count(_ fault: String) -> Int { requests.filter { $0["fault"] as? String == fault }.count }

        /// The writes (PUT) of paths ending in `suffix` that the store took (200).
        func landed(_ suffix: String) -> Int {
            requests.filter {
                $0["method"] as? String == "PUT" && ($0["path"] as? String ?? "").hasSuffix(suffix)
                    && $0["status"] as? Int == 200
            }.count
        }
    }

    /// A package of `version` with 30 small files and, with `large`, a 20 MiB file (one PUT streamed
    /// as it is decoded); with `huge`, also a 66 MiB file (a multipart upload of nine parts).
    func package(_ version: String, large: Bool, huge: Bool = false) throws -> (pkg: String, folder: String) {
        var files: [String: String] = [:]
        for index in 0..<30 { files["Contents/small/f\(index).txt"] = "\(version) file \(index)\n" }
        let folder = try scratch.contentFolder("src-\(version)", product: Self.product, version: version, files: files)
        if large { try scratch.write("src-\(version)/Contents/large.bin", randomBytes(20 << 20)) }
        if huge {  // written by the shell: 66 MiB held by the test would disturb the memory tests beside it
            let made = try Harness.shell(
                "head -c \(66 << 20) /dev/urandom > src-\(version)/Contents/huge.bin", in: scratch.path)
            #expect(made.status == 0, "\(made.stderr)")
        }
        let pkg = scratch.at("\(version).pkg")
        try InProcessBuild.package(folder, to: pkg, level: 1)
        return (pkg, folder)
    }

    /// The version is in the bucket whole and alone: exactly the keys its manifest lists, its
    /// claim, no multipart upload left open.
    func expectWhole(_ bucket: BucketStore, _ version: String, files: Int) throws {
        let paths = try #require(try bucket.manifestPaths(Self.product, version))
        #expect(paths.count == files)
        let expected = (paths + ["manifest.json"]).map { "\(Self.product)/\(version)/\($0)" }.sorted()
        #expect(try bucket.keys("\(Self.product)/\(version)/") == expected)
        #expect(try bucket.keys("\(Self.product)/.iapkg/claims/").count >= 1)
        #expect(try bucket.openUploads().isEmpty)
    }

    @Test func unpackRetriesSlowDownAndDroppedConnectionsAndLandsTheVersionOnce() throws {
        let bucket = try BucketStore()
        let proxy = try FaultProxy(
            bucket.server,
            rules: [
                ("PUT", "/\\.iapkg/claims/", "slowdown", 1), ("PUT", "/\\.iapkg/claims/", "lost-answer", 1),
                ("PUT", "partNumber=", "slowdown", 2), ("PUT", "partNumber=", "drop", 1),
                ("POST", "uploadId=", "lost-answer", 1), ("POST", "[?]uploads", "lost-answer", 1),
                // A streamed PUT's body is spent: it is sent again by another pass over the package.
                ("PUT", "/Contents/large\\.bin$", "slowdown", 1), ("PUT", "/Contents/large\\.bin$", "drop", 1),
                ("PUT", "/Contents/small/", "slowdown", 4), ("PUT", "/Contents/small/", "drop", 2),
                ("PUT", "/Contents/small/", "lost-answer", 2),
                ("PUT", "/manifest\\.json$", "slowdown", 1), ("PUT", "/manifest\\.json$", "lost-answer", 1),
                ("PUT", "/current\\.json$", "drop", 1), ("PUT", "/current\\.json$", "lost-answer", 1),
            ], log: scratch.at("proxy.log"))
        var environment = bucket.environment
        environment["AWS_ENDPOINT_URL"] = proxy.endpoint
        let (pkg, folder) = try package("1.0", large: true, huge: true)
        let run = try Harness.run(["iapkg", "unpack", pkg, "--into", bucket.url], environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("installed in"), "\(run.stdout)")
        // Every fault was met, and the conditional writes each took effect exactly once.
        #expect(proxy.count("slowdown") == 9 && proxy.count("drop") == 5, "\(proxy.requests)")
        #expect(proxy.count("lost-answer") == 7, "\(proxy.requests)")
        #expect(proxy.landed("/current.json") == 1, "\(proxy.requests)")
        #expect(proxy.landed("/.iapkg/claims/1") == 1, "\(proxy.requests)")
        #expect(proxy.landed("/Contents/large.bin") == 1, "\(proxy.requests)")
        #expect(try bucket.current(Self.product) == "1.0")
        try expectWhole(bucket, "1.0", files: 33)
        for name in ["large.bin", "huge.bin"] {
            let local = try Harness.shell("sha256sum Contents/\(name)", in: folder).stdout.prefix(64)
            #expect(try bucket.sha256("\(Self.product)/1.0/Contents/\(name)") == String(local), "\(name)")
        }
        // The same package again through the same faults is found installed.
        let again = try Harness.run(["iapkg", "unpack", pkg, "--into", bucket.url], environment: environment)
        #expect(again.status == 0 && again.stdout.contains("already installed"), "\(again.stdout)\(again.stderr)")
    }

    @Test func serveRetriesAThrottledStoreLaterAndNeverRejects() throws {
        let bucket = try BucketStore()
        // Five SlowDowns on the manifest outlast the client's five tries: serve retries the package.
        let proxy = try FaultProxy(
            bucket.server,
            rules: [
                ("PUT", "/manifest\\.json$", "slowdown", 5), ("PUT", "/Contents/small/", "slowdown", 3),
                ("PUT", "/Contents/small/", "drop", 1), ("PUT", "/current\\.json$", "drop", 2),
                ("PUT", "/current\\.json$", "lost-answer", 2), ("GET", "/current\\.json$", "slowdown", 2),
            ], log: scratch.at("proxy.log"))
        var environment = bucket.environment
        environment["AWS_ENDPOINT_URL"] = proxy.endpoint
        let incoming = scratch.at("incoming")
        try FileManager.default.createDirectory(atPath: incoming, withIntermediateDirectories: true)
        let serve = try ServeProcess(
            scratch, incoming: incoming, root: bucket.url, extra: ["--retry-seconds", "1"], environment: environment)
        try ServeCheck.drop(try package("1.0", large: false).pkg, into: incoming, as: "a.pkg")
        #expect(ServeCheck.wait(seconds: 120) { !ServeCheck.events(serve, "accepted").isEmpty }, "\(serve.stderr)")
        #expect(!ServeCheck.events(serve, "retrying").isEmpty, "\(serve.stdout)")
        try ServeCheck.drop(try package("1.1", large: false).pkg, into: incoming, as: "b.pkg")
        #expect(ServeCheck.wait(seconds: 120) { ServeCheck.events(serve, "accepted").count == 2 }, "\(serve.stderr)")
        #expect(serve.stop() == 0)
        #expect(ServeCheck.events(serve, "rejected").isEmpty, "\(serve.stdout)")
        #expect(proxy.count("slowdown") == 10 && proxy.count("drop") == 3, "\(proxy.requests)")
        #expect(proxy.count("lost-answer") == 2, "\(proxy.requests)")
        // current.json was written once per version: the lost answers were recognised, not written again.
        #expect(proxy.landed("/current.json") == 2, "\(proxy.requests)")
        #expect(try bucket.current(Self.product) == "1.1")
        try expectWhole(bucket, "1.0", files: 31)
        try expectWhole(bucket, "1.1", files: 31)
    }

    @Test func exportAndDiffReadThroughSlowDownDroppedAndCutAnswers() throws {
        let bucket = try BucketStore()
        let (pkg, folder) = try package("1.0", large: true)
        let published = try Harness.run(
            ["iapkg", "unpack", pkg, "--into", bucket.url], environment: bucket.environment)
        #expect(published.status == 0, "\(published.stderr)")
        let proxy = try FaultProxy(
            bucket.server,
            rules: [
                ("GET", "list-type=2", "slowdown", 1), ("GET", "/manifest\\.json$", "slowdown", 1),
                ("GET", "/manifest\\.json$", "cut-answer", 1), ("GET", "/Contents/small/", "slowdown", 3),
                ("GET", "/Contents/small/", "drop", 2), ("GET", "/Contents/small/", "cut-answer", 2),
                ("GET", "/Contents/large\\.bin$", "cut-answer", 1), ("GET", "/Contents/large\\.bin$", "drop", 1),
            ], log: scratch.at("proxy.log"))
        var environment = bucket.server.environment(SeaweedServer.reader)
        environment["AWS_ENDPOINT_URL"] = proxy.endpoint
        let url = bucket.url + "/" + Self.product
        let exported = try Harness.run(
            ["iapkg", "export-asset-pack", url, "--into", scratch.at("packs")], environment: environment)
        #expect(exported.status == 0, "\(exported.stderr)")
        let diff = try Harness.shell(
            "diff -r -x AssetPackManifest.json 'packs/\(Self.product)' '\(folder)'", in: scratch.path)
        #expect(diff.status == 0, "\(diff.stdout)\(diff.stderr)")
        let compared = try Harness.run(["iapkg", "diff", url + "/1.0", pkg], environment: environment)
        #expect(compared.status == 0 && compared.stdout.contains("0 added, 0 removed, 0 changed"), "\(compared.stdout)")
        #expect(proxy.count("slowdown") == 5 && proxy.count("drop") == 3, "\(proxy.requests)")
        #expect(proxy.count("cut-answer") == 4, "\(proxy.requests)")
    }
}
