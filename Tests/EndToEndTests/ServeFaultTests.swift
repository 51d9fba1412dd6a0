import Foundation
import Testing

/// Failures that are not the package's (a full disk, a read-only ROOT) are retried, never
/// rejected, and the status document and the Prometheus counters show them while they last.
@Suite(.serialized) struct ServeFaultTests {
    @Test(.enabled(if: FaultConditions.canMount, "needs root to mount a tmpfs"))
    func aFullDiskThenAReadOnlyRootAreWaitedOut() async throws {
        let scratch = ScratchFolder()
        let incoming = scratch.at("incoming")
        try FileManager.default.createDirectory(atPath: incoming, withIntermediateDirectories: true)
        let disk = try SmallFileSystem(at: scratch.at("srv"), options: "size=1m")
        let root = disk.path + "/store"
        let noise = try #require(FileHandle(forReadingAtPath: "/dev/urandom")).readData(ofLength: 3 << 20)
        let folder = try scratch.contentFolder("big", product: "com.example.full", version: "1.0")
        try noise.write(to: URL(fileURLWithPath: folder + "/Contents/noise.bin"))
        let big = scratch.at("big.pkg")
        #expect(try await Harness.run(["iapkg", "build", folder, "-o", big]).status == 0)
        let small = try ServeCheck.package(scratch, product: "com.example.ro", version: "1.0", name: "small")
        let status = scratch.at("status.json")
        let metrics = scratch.at("serve.prom")
        let serve = try ServeProcess(
            scratch, incoming: incoming, root: root,
            extra: ["--retry-seconds", "0.2", "--status-file", status, "--metrics-file", metrics])

        // 3 MiB into 1 MiB: retried, the package kept in .processing/, the monitor told.
        try ServeCheck.drop(big, into: incoming, as: "big.pkg")
        #expect(
            await ServeCheck.wait(seconds: 10) { ServeCheck.events(serve, "retrying").count >= 2 }, "\(serve.stderr)")
        #expect(ServeCheck.names(incoming + "/.processing") == ["big.pkg"])
        let retrying = ServeCheck.events(serve, "retrying").first?["message"] as? String ?? ""
        #expect(retrying.contains("/.processing/big.pkg") && retrying.contains("tried again"), "\(retrying)")
        let failing = try Self.json(status)
        #expect(failing["healthy"] as? Bool == false && failing["failingSince"] is String, "\(failing)")
        #expect((failing["lastError"] as? String)?.contains("No space left on device") == true)
        #expect(failing["retrying"] as? Int == 1 || failing["waiting"] as? Int == 1)
        let text = try String(contentsOfFile: metrics, encoding: .utf8)
        #expect(text.contains("iapkg_serve_failed_attempts_total "), "\(text)")
        #expect(!text.contains("iapkg_serve_failing_since_time_seconds 0.0"), "\(text)")
        // Room again: taken at the next attempt.
        let grown = try await Harness.run(["mount", "-o", "remount,size=16m", disk.path])
        #expect(grown.status == 0, "\(grown.stderr)")
        #expect(await ServeCheck.wait(seconds: 20) { !ServeCheck.events(serve, "accepted").isEmpty }, "\(serve.stderr)")

        // A read-only ROOT: the same.
        try disk.remount(readOnly: true)
        try ServeCheck.drop(small, into: incoming, as: "small.pkg")
        #expect(
            await ServeCheck.wait(seconds: 10) {
                ServeCheck.events(serve, "retrying").contains { $0["file"] as? String == "small.pkg" }
            }, "\(serve.stderr)")
        try disk.remount(readOnly: false)
        #expect(
            await ServeCheck.wait(seconds: 20) { ServeCheck.events(serve, "accepted").count == 2 }, "\(serve.stderr)")
        #expect(await ServeCheck.wait(seconds: 10) { (try? Self.json(status))?["healthy"] as? Bool == true })
        #expect(await serve.stop() == 0)

        #expect(ServeCheck.events(serve, "rejected").isEmpty, "\(serve.stdout)")
        #expect(try ServeCheck.schemaProblems(serve, status: status) == [])
        #expect(ServeCheck.names(incoming + "/rejected") == [])
        #expect(
            ServeCheck.names(incoming + "/accepted") == [
                "big.pkg", "big.pkg.report.json", "small.pkg", "small.pkg.report.json",
            ])
        #expect(ServeCheck.current(root, "com.example.full") == "1.0")
        #expect(ServeCheck.current(root, "com.example.ro") == "1.0")
        let healthy = try Self.json(status)
        #expect(healthy["accepted"] as? Int == 2 && healthy["failingSince"] == nil, "\(healthy)")
        #expect(
            try String(contentsOfFile: metrics, encoding: .utf8).contains(
                "iapkg_serve_packages_total{outcome=\"accepted\"} 2"))
    }

    /// A read-only drop folder: nothing can be claimed; said once, counted, taken once writable.
    @Test(.enabled(if: FaultConditions.canMount, "needs root to mount a tmpfs"))
    func aReadOnlyDropFolderIsWaitedOut() async throws {
        let scratch = ScratchFolder()
        let drop = try SmallFileSystem(at: scratch.at("incoming"), options: "size=4m")
        let root = scratch.at("srv")
        let status = scratch.at("status.json")
        let pkg = try ServeCheck.package(scratch, product: "com.example.rodrop", version: "1.0", name: "p")
        let first = try ServeProcess(scratch, incoming: drop.path, root: root, tag: "first")  // makes its folders
        #expect(await ServeCheck.wait(seconds: 10) { first.stderr.contains("watching") })
        #expect(await first.stop() == 0)
        try ServeCheck.drop(pkg, into: drop.path, as: "p.pkg")
        try drop.remount(readOnly: true)
        let serve = try ServeProcess(scratch, incoming: drop.path, root: root, extra: ["--status-file", status])
        #expect(
            await ServeCheck.wait(seconds: 10) { (try? Self.json(status))?["failingSince"] is String },
            "\(serve.stderr)")
        await Harness.pause(2)  // four more looks at the file
        #expect(serve.stderr.components(separatedBy: "Read-only file system").count == 2, "\(serve.stderr)")
        #expect(((try Self.json(status))["failedAttempts"] as? Int ?? 0) >= 3)
        try drop.remount(readOnly: false)
        #expect(await ServeCheck.wait(seconds: 10) { serve.events.count == 1 }, "\(serve.stderr)")
        #expect(await serve.stop() == 0)
        #expect(ServeCheck.events(serve, "accepted").count == 1, "\(serve.stdout)")
        #expect((try Self.json(status))["healthy"] as? Bool == true)
    }

    static func json(_ path: String) throws -> [String: Any] {
        try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }
}
