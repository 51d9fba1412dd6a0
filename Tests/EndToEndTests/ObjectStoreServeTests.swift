import Foundation
import IAPTestSupport
import Testing

/// `iapkg serve --into s3://…` against a real SeaweedFS: two drop folders (two hosts) publishing
/// into one prefix, and a store that is down when packages arrive.
@Suite(.enabled(if: SeaweedServer.isInstalled, SeaweedServer.skipReason)) struct ObjectStoreServeTests {
    static let product = "com.example.bucket.serve"

    @Test func twoServeProcessesIntoOnePrefixKeepEachProductsVersionsInOrder() throws {
        let scratch = ScratchFolder()
        let bucket = try BucketStore()
        let store = bucket.url
        let incoming = [scratch.at("host-a"), scratch.at("host-b")]
        for folder in incoming {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        let serves = try incoming.enumerated().map { index, folder in
            try ServeProcess(
                scratch, incoming: folder, root: store, extra: ["--keep", "2", "--keep-for", "0"],
                tag: "serve-\(index)", environment: bucket.environment)
        }
        let versions = ["1.1", "1.2", "1.3", "1.4", "1.5", "1.6"]
        for (index, version) in versions.enumerated() {
            let pkg = try ServeCheck.package(scratch, product: Self.product, version: version, name: version)
            try ServeCheck.drop(pkg, into: incoming[index % 2], as: "p\(version).pkg")
        }
        let settled = ServeCheck.wait(seconds: 120) {
            let done = serves.flatMap { $0.events }.filter {
                ["accepted", "rejected"].contains($0["outcome"] as? String)
            }
            return done.count == versions.count
        }
        #expect(settled, "\(serves.map(\.stderr))")
        for serve in serves { #expect(serve.stop() == 0) }
        #expect(try bucket.current(Self.product) == "1.6")
        // Each version accepted is complete or pruned; each rejected one (a downgrade that lost the
        // race) waits in rejected/ with its report, and left nothing in the bucket.
        let events = serves.flatMap { $0.events }
        for event in events where event["outcome"] as? String == "rejected" {
            let moved = try #require(event["movedTo"] as? String)
            #expect(FileManager.default.fileExists(atPath: moved + ".report.json"), "\(event)")
            #expect((event["message"] as? String ?? "").contains("lower than the current"), "\(event)")
        }
        let listed = try bucket.iapkg(["list", store, "--json"])
        let json = try JSONSerialization.jsonObject(with: listed.stdoutData) as? [String: Any]
        let kept = ((json?["products"] as? [[String: Any]])?.first?["versions"] as? [[String: Any]]) ?? []
        #expect(kept.count <= 2 && kept.last?["version"] as? String == "1.6", "\(kept)")
        #expect(try bucket.openUploads().isEmpty)
    }

    @Test func aStoreOutageIsRetriedNeverRejected() throws {
        let scratch = ScratchFolder()
        let bucket = try BucketStore()
        let forwarder = StoreForwarder(to: bucket.server)  // not started: the store is down
        let incoming = scratch.at("incoming")
        try FileManager.default.createDirectory(atPath: incoming, withIntermediateDirectories: true)
        var environment = bucket.environment
        environment["AWS_ENDPOINT_URL"] = forwarder.endpoint
        let serve = try ServeProcess(
            scratch, incoming: incoming, root: bucket.url, extra: ["--retry-seconds", "1"], environment: environment)
        let pkg = try ServeCheck.package(scratch, product: Self.product, version: "1.0", name: "a")
        try ServeCheck.drop(pkg, into: incoming, as: "a.pkg")
        #expect(ServeCheck.wait(seconds: 90) { !ServeCheck.events(serve, "retrying").isEmpty }, "\(serve.stderr)")
        #expect(ServeCheck.events(serve, "rejected").isEmpty)
        // The store comes back where it was: the package goes in, nothing is rejected.
        try forwarder.start()
        #expect(ServeCheck.wait(seconds: 120) { !ServeCheck.events(serve, "accepted").isEmpty }, "\(serve.stdout)")
        #expect(ServeCheck.events(serve, "rejected").isEmpty)
        #expect(try bucket.current(Self.product) == "1.0")
        #expect(serve.stop() == 0)
    }
}
