import Foundation
import IAPCrypto
import IAPKit
import IAPKitTestSupport
import IAPSystem
import IAPTestSupport
import Testing

/// Publishing into a real SeaweedFS straight from the package (nothing staged on disk): a package
/// rewritten while it is published never leaves a partial version or objects other than those its
/// manifest lists with their SHA-256, and hard-linked files (staged, as on disk) hold their bytes.
@Suite(.enabled(if: SeaweedServer.isInstalled, SeaweedServer.skipReason)) struct ObjectStorePublishTests {
    static let product = ChangingInputTests.product

    /// The objects of `version` (manifest left out), by path below the version.
    static func objects(_ bucket: BucketStore, _ version: String) throws -> [String: Data] {
        let base = "\(product)/\(version)/"
        var objects: [String: Data] = [:]
        for key in try bucket.keys(base) where key != base + "manifest.json" {
            objects[String(key.dropFirst(base.count))] = try bucket.read(key)
        }
        return objects
    }

    @Test(arguments: ["product", "tree"])
    func aPackageChangedWhilePublishedNeverLeavesAPartialVersion(layout: String) throws {
        let scratch = ScratchFolder()
        let (folder, pristine) = try ChangingInputTests.source(scratch, layout: layout)
        try scratch.write("src-\(layout)/Contents/media/large.bin", randomBytes(20 << 20))  // one streamed PUT
        try InProcessBuild.package(folder, to: pristine, layout: try #require(PackageLayout(rawValue: layout)))
        let otherScratch = ScratchFolder()
        let other = try Data(
            contentsOf: URL(fileURLWithPath: try ChangingInputTests.source(otherScratch, layout: layout).package))
        // Files only: a bucket has no folders.
        let candidates = try [folder, otherScratch.at("src-\(layout)")].map { source in
            try ScratchFolder.snapshotOf(source).filter { !$0.key.hasSuffix("/") }
        }
        let work = scratch.at("work.pkg")
        for round in 0..<6 {
            let bucket = try BucketStore()
            try? FileManager.default.removeItem(atPath: work)
            try FileManager.default.copyItem(atPath: pristine, toPath: work)
            let change = ChangingInputTests.Change.allCases[round % ChangingInputTests.Change.allCases.count]
            let running = try RunningProcess(
                ["unpack", work, "--into", bucket.url], scratch: scratch, environment: bucket.environment)
            Thread.sleep(forTimeInterval: Double(round) * 0.15)
            try ChangingInputTests.apply(change, to: work, other: other)
            let status = running.finish()
            let label = "\(layout), round \(round), \(change)"
            #expect([0, 1, 2].contains(status ?? -1), "\(label): exit \(status ?? -1)\n\(running.output)")
            #expect(try bucket.openUploads().isEmpty, "\(label)")
            guard let manifest = try bucket.read("\(Self.product)/1.0/manifest.json") else {
                #expect(status != 0, "\(label): success without a version")
                #expect(try bucket.current(Self.product) == nil, "\(label)")
                continue
            }
            // Installed: the objects are one package's content whole, each as its manifest lists it.
            let objects = try Self.objects(bucket, "1.0")
            #expect(candidates.contains(objects), "\(label): a partial or mixed version was published")
            let listed = try JSONSerialization.jsonObject(with: manifest) as? [String: Any]
            for file in (listed?["files"] as? [[String: Any]]) ?? [] {
                let path = file["path"] as? String ?? ""
                let sha = objects[path].map { Hex.encode(DigestHasher.digest(.sha256, of: [UInt8]($0))) }
                #expect(sha == file["sha256"] as? String, "\(label): \(path)")
            }
        }
    }

    @Test func hardLinkedFilesGoUpWithTheirBytes() throws {
        let scratch = ScratchFolder()
        let bytes = Array("shared level data\n".utf8)
        let folder = try scratch.contentFolder(
            "linked", product: "com.example.test", version: "1.0", files: ["Contents/readme.txt": "hello\n"])
        try Data(bytes).write(to: URL(fileURLWithPath: folder + "/Contents/a"))
        try FileManager.default.linkItem(atPath: folder + "/Contents/a", toPath: folder + "/Contents/z")
        let payload = scratch.at("newc-payload.gz")
        #expect(try Harness.shell("bsdtar --format newc -czf '\(payload)' .", in: folder).status == 0)
        var package = HostileProduct(items: [
            .directory("."),
            .file("./ContentInfo.plist", text: Fixtures.plist(product: "com.example.test", version: "1.0")),
            .directory("./Contents"), .file("./Contents/a", bytes), .file("./Contents/readme.txt", text: "hello\n"),
            .file("./Contents/z", bytes),
        ])
        package.payloadOverride = Array(try Data(contentsOf: URL(fileURLWithPath: payload)))
        let path = scratch.at("links.pkg")
        try package.write(to: path)
        let bucket = try BucketStore()
        let published = try bucket.iapkg(["unpack", path, "--into", bucket.url])
        #expect(published.status == 0, "\(published.stderr)")
        #expect(try bucket.read("com.example.test/1.0/Contents/a") == Data(bytes))
        #expect(try bucket.read("com.example.test/1.0/Contents/z") == Data(bytes))
        #expect(
            try bucket.manifestPaths("com.example.test", "1.0")?.sorted() == [
                "ContentInfo.plist", "Contents/a", "Contents/readme.txt", "Contents/z",
            ])
    }
}
