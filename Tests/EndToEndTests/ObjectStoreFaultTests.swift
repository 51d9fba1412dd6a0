import Foundation
import IAPTestSupport
import Testing

/// Publishing into a real SeaweedFS while things go wrong: a publish killed at random moments,
/// publishers racing each other for `current.json` and for one version, and a reader polling
/// `current.json` meanwhile. Bucket state is read back with botocore and anonymous HTTP.
@Suite(.enabled(if: SeaweedServer.isInstalled, SeaweedServer.skipReason)) struct ObjectStoreFaultTests {
    static let product = "com.example.bucket.faults"

    @Test func aPublishKilledAtAnyMomentLeavesCurrentAndARerunCompletesExactly() throws {
        let scratch = ScratchFolder()
        let bucket = try BucketStore()
        let store = bucket.url
        let first = try ServeCheck.package(scratch, product: Self.product, version: "1.0", name: "first")
        #expect(
            try Harness.run(["iapkg", "unpack", first, "--into", store], environment: bucket.environment).status == 0)
        var files: [String: String] = [:]
        for index in 0..<150 { files["Contents/small/\(index % 5)/f\(index).txt"] = "file \(index)\n" }
        let folder = try scratch.contentFolder("big", product: Self.product, version: "1.1", files: files)
        try scratch.write("big/Contents/large.bin", randomBytes(40 << 20))  // one PUT, streamed as it is decoded
        let second = scratch.at("big.pkg")
        try InProcessBuild.package(folder, to: second, level: 1)

        var completed = false
        for round in 0..<Sanitizer.rounds(6) where !completed {
            let publish = try RunningProcess(
                ["unpack", second, "--into", store], scratch: scratch, environment: bucket.environment)
            Thread.sleep(forTimeInterval: Double.random(in: 0.05...2.5))
            if publish.process.isRunning {
                publish.kill()
            } else {
                completed = publish.finish() == 0
            }
            // A kill that lands after current.json was written (the process not yet gone) finds the
            // publish complete: current may name 1.1 only once its manifest, the last object, is there.
            let current = try bucket.current(Self.product)
            let installed = try bucket.read("\(Self.product)/1.1/manifest.json") != nil
            #expect(current == "1.0" || (current == "1.1" && installed), "round \(round): current \(current ?? "none")")
            if current == "1.1" { completed = true }
        }
        let rerun = try Harness.run(["iapkg", "unpack", second, "--into", store], environment: bucket.environment)
        #expect(rerun.status == 0, "\(rerun.stderr)")
        let manifest = try #require(try bucket.read("\(Self.product)/1.1/manifest.json"))
        let listed = try JSONSerialization.jsonObject(with: manifest) as? [String: Any]
        let paths = ((listed?["files"] as? [[String: Any]]) ?? []).compactMap { $0["path"] as? String }
        #expect(paths.count == 152)  // the files, ContentInfo.plist and large.bin
        let expected = (paths + ["manifest.json"]).map { "\(Self.product)/1.1/\($0)" }.sorted()
        #expect(try bucket.keys("\(Self.product)/1.1/") == expected)
        #expect(try bucket.openUploads().isEmpty)
        let large = try #require(try bucket.read("\(Self.product)/1.1/Contents/large.bin"))
        #expect(large == (try Data(contentsOf: URL(fileURLWithPath: folder + "/Contents/large.bin"))))
        // A kill after the manifest and before current.json leaves the version installed, not
        // current, as on disk: the rerun then finds it installed and leaves current alone.
        let current = try bucket.current(Self.product)
        #expect(current == "1.1" || rerun.stdout.contains("already installed"), "\(rerun.stdout)")
    }

    @Test func racingPublishersNeverLoseAnUpdateAndReadersNeverSeeHalfAVersion() throws {
        let scratch = ScratchFolder()
        let bucket = try BucketStore()
        let store = bucket.url
        let versions = ["1.1", "1.2", "1.3", "1.4"]
        var packages: [String: String] = [:]
        var fileCounts: [String: Int] = [:]
        for version in versions {
            var files: [String: String] = [:]
            for index in 0..<40 { files["Contents/d\(index % 4)/f\(index).txt"] = "\(version) \(index)\n" }
            packages[version] = try ServeCheck.package(
                scratch, product: Self.product, version: version, name: version, files: files)
            fileCounts[version] = 41
        }
        // Two publishers of 1.3 with different content: one claims it, the other is refused.
        let rival = try ServeCheck.package(
            scratch, product: Self.product, version: "1.3", name: "rival", files: ["Contents/rival.txt": "rival\n"])
        let publishers = try (versions + ["rival"]).shuffled().map { name in
            try RunningProcess(
                ["unpack", packages[name] ?? rival, "--into", store], scratch: scratch, environment: bucket.environment)
        }
        var polls = 0
        while publishers.contains(where: { $0.process.isRunning }) || polls < 3 {
            polls += 1
            guard let current = try bucket.current(Self.product) else { continue }
            // current names a version whose manifest and every object it lists are there.
            let manifest = try #require(try bucket.read("\(Self.product)/\(current)/manifest.json"), "\(current)")
            let listed = try JSONSerialization.jsonObject(with: manifest) as? [String: Any]
            let count = (listed?["files"] as? [[String: Any]])?.count ?? -1
            let keys = try bucket.keys("\(Self.product)/\(current)/")
            #expect(keys.count == count + 1, "current \(current): \(keys.count) keys for \(count) files")
        }
        let statuses = publishers.map { $0.finish() }
        #expect(statuses.allSatisfy { $0 == 0 || $0 == 1 }, "\(statuses) \(publishers.map(\.output))")
        #expect(statuses.filter { $0 == 1 }.count >= 1)  // the loser of 1.3, and maybe late lower versions
        #expect(try bucket.current(Self.product) == "1.4")
        // 1.3 holds one publisher's content whole: the rival's file or the 40 files, never both.
        let keys = try bucket.keys("\(Self.product)/1.3/")
        let rivalWon = keys.contains { $0.hasSuffix("/rival.txt") }
        #expect(keys.count == (rivalWon ? 3 : 42), "\(keys)")
        #expect(try bucket.openUploads().isEmpty)
    }
}
