import Foundation
import IAPTestSupport
import Testing

/// `diff` and `export-asset-pack` reading versions out of a real SeaweedFS (`s3://BUCKET/PREFIX`,
/// `…/<product>`, `…/<product>/<version>`), checked against the same commands on a folder store
/// holding the same packages, with the read-only identity.
@Suite(.enabled(if: SeaweedServer.isInstalled, SeaweedServer.skipReason)) struct ObjectStoreReadTests {
    static let product = "com.example.bucket.read"
    static let other = "com.example.bucket.read.other"
    let scratch = ScratchFolder()

    /// Packages 1.0 and 1.1 of `product` (1.1 adds, removes and changes a file; both hold a
    /// symlink) and 2.0 of `other`, published into `bucket` and into the folder store `srv`.
    func publish(into bucket: BucketStore) throws {
        let versions: [(String, String, [String: String])] = [
            (
                Self.product, "1.0",
                ["Contents/same.txt": "same\n", "Contents/gone.txt": "bye\n", "Contents/edit.txt": "v1\n"]
            ),
            (
                Self.product, "1.1",
                ["Contents/same.txt": "same\n", "Contents/edit.txt": "version 2\n", "Contents/add/new.txt": "hi\n"]
            ),
            (Self.other, "2.0", ["Contents/only.txt": "other\n"]),
        ]
        for (product, version, files) in versions {
            let folder = try scratch.contentFolder(
                "src-\(product)-\(version)", product: product, version: version, files: files)
            try FileManager.default.createSymbolicLink(
                atPath: folder + "/Contents/link.txt", withDestinationPath: "same.txt")
            let pkg = scratch.at("\(product)-\(version).pkg")
            try InProcessBuild.package(folder, to: pkg)
            for root in [bucket.url, scratch.at("srv")] {
                let unpacked = try bucket.iapkg(["unpack", pkg, "--into", root])
                #expect(unpacked.status == 0, "\(unpacked.stderr)")
            }
        }
    }

    @Test func diffReadsVersionsFromTheBucketAsFromAFolderStore() throws {
        let bucket = try BucketStore()
        try publish(into: bucket)
        let url = bucket.url + "/" + Self.product
        let disk = scratch.at("srv/\(Self.product)")
        let newer = scratch.at("\(Self.product)-1.1.pkg")
        let expected = try diffJSON(disk + "/1.0", disk + "/1.1")
        #expect(expected["changed"] as? [String] == ["ContentInfo.plist", "Contents/edit.txt"])
        // A version in the bucket, a product (its current version, 1.1) and a package, in any pairing.
        for (old, new) in [
            (url + "/1.0", url + "/1.1"), (url + "/1.0", url), (url + "/1.0/", newer), (disk + "/1.0", url),
        ] {
            let json = try diffJSON(old, new)
            for key in ["added", "removed", "changed", "unchanged", "downloadBytes"] {
                #expect("\(json[key] ?? "")" == "\(expected[key] ?? "")", "\(old) → \(new): \(key)")
            }
            #expect(json["newVersion"] as? String == "1.1")
        }
        let text = try bucket.iapkg(["diff", url + "/1.0", url + "/1.1"], as: SeaweedServer.reader)
        #expect(
            text.stdout.hasPrefix("\(url)/1.0 (\(Self.product) 1.0) → \(url)/1.1 (\(Self.product) 1.1): 1 added"),
            "\(text.stdout)")
        // What is not there, or not a version, is a clear error naming it (exit 2, as a missing file).
        let missing = try bucket.iapkg(["diff", url + "/9.9", url])
        #expect(missing.status == 2 && missing.stderr.contains("\(bucket.url) holds no installed version 9.9"))
        let whole = try bucket.iapkg(["diff", bucket.url, url])
        #expect(whole.status == 2 && whole.stderr.contains("\(bucket.url) names no version"), "\(whole.stderr)")
        #expect(!(missing.stderr + whole.stderr + text.stdout).contains(SeaweedServer.writer.secretKey))
    }

    /// `iapkg diff OLD NEW --json` with the read-only identity: the changed paths and the figures.
    func diffJSON(_ old: String, _ new: String) throws -> [String: Any] {
        let bucket = try BucketStore()
        let run = try bucket.iapkg(["diff", old, new, "--json"], as: SeaweedServer.reader)
        #expect(run.status == 0, "\(old) → \(new): \(run.stderr)")
        let json = try JSONSerialization.jsonObject(with: run.stdoutData) as? [String: Any] ?? [:]
        func paths(_ key: String) -> [String] {
            ((json[key] as? [[String: Any]]) ?? []).compactMap { $0["path"] as? String }
        }
        return [
            "added": paths("added"), "removed": paths("removed"), "changed": paths("changed"),
            "unchanged": json["unchanged"] ?? -1, "downloadBytes": json["downloadBytes"] ?? -1,
            "newVersion": (json["new"] as? [String: Any])?["version"] ?? "",
        ]
    }

    @Test func exportAssetPackReadsAStoreAProductAndAVersionFromTheBucket() throws {
        let bucket = try BucketStore()
        try publish(into: bucket)
        let url = bucket.url
        let runs: [(String, [String], [String])] = [
            ("store", [url], [Self.product, Self.other]), ("product", [url + "/" + Self.product], [Self.product]),
            ("version", [url + "/" + Self.product + "/1.0"], [Self.product]),
        ]
        for (name, inputs, products) in runs {
            let run = try bucket.iapkg(
                ["export-asset-pack"] + inputs + ["--into", scratch.at(name)], as: SeaweedServer.reader)
            #expect(run.status == 0, "\(name): \(run.stderr)")
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: scratch.at(name)).sorted() == products, "\(name)")
            for product in products {
                let pack = scratch.at("\(name)/\(product)")
                _ = try ExportAssetPackTests.manifest(pack)
                // The content byte for byte and link for link as unpack installed it on disk.
                let version = product == Self.other ? "2.0" : name == "version" ? "1.0" : "1.1"
                let diff = try Harness.shell(
                    "diff -r --no-dereference -x manifest.json -x AssetPackManifest.json '\(pack)' 'srv/\(product)/\(version)'",
                    in: scratch.path)
                #expect(diff.status == 0, "\(name)/\(product): \(diff.stdout)\(diff.stderr)")
            }
        }
        // An object changed in the bucket after publishing is caught by the manifest: nothing is exported.
        try scratch.write("tampered.txt", "tampered\n")
        _ = try bucket.api([
            "put-object", "--key", "\(bucket.prefix)/\(Self.product)/1.1/Contents/edit.txt", "--body",
            scratch.at("tampered.txt"),
        ])
        let damaged = try bucket.iapkg(["export-asset-pack", url + "/" + Self.product, "--into", scratch.at("damaged")])
        #expect(damaged.status == 2 && damaged.stderr.contains("Contents/edit.txt"), "\(damaged.stderr)")
        #expect(damaged.stderr.contains("changed or damaged"), "\(damaged.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.at("damaged")) == [])
        let empty = try bucket.iapkg([
            "export-asset-pack", "s3://\(SeaweedServer.bucket)/\(SeaweedServer.uniquePrefix())", "--into",
            scratch.at("none"),
        ])
        #expect(empty.status == 1 && empty.stderr.contains("holds no product"), "\(empty.stderr)")
        // A store whose prefix ends in what reads as a product and a version is still a store.
        let nested = url + "/releases/2"
        let other = scratch.at("\(Self.other)-2.0.pkg")
        #expect(try bucket.iapkg(["unpack", other, "--into", nested]).status == 0)
        let fromNested = try bucket.iapkg(["export-asset-pack", nested, "--into", scratch.at("nested")])
        #expect(fromNested.status == 0, "\(fromNested.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.at("nested")) == [Self.other])
        let versionInNested = try bucket.iapkg(["diff", "\(nested)/\(Self.other)/2.0", other])
        #expect(versionInNested.stdout.contains("0 added, 0 removed, 0 changed"), "\(versionInNested.stderr)")
    }
}
