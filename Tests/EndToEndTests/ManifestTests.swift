import Foundation
import IAPKit
import IAPSystem
import Testing

/// manifest.json in every version, current.json beside `current`.
@Suite(.onTestThreads) struct ManifestTests {
    static let product = "com.example.manifest"

    func package(_ scratch: ScratchFolder, _ version: String, _ files: [String: String]) throws -> String {
        let folder = try scratch.contentFolder("src-\(version)", product: Self.product, version: version, files: files)
        let pkg = scratch.at("m\(version).pkg")
        let built = try Harness.run(["iapkg", "build", folder, "-o", pkg])
        #expect(built.status == 0, "\(built.stderr)")
        return pkg
    }

    func pointer(_ root: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: root + "/\(Self.product)/current.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func manifestMatchesFilesByteForByteAndCurrentJSONFollowsActivate() throws {
        let scratch = ScratchFolder()
        let v1 = try package(
            scratch, "1.0",
            [
                "Contents/a.txt": "one\n", "Contents/日本 語/データ.txt": "names in JSON\n",
                "Contents/deep/b.bin": String(repeating: "x", count: 70_000),
            ])
        let v2 = try package(scratch, "2.0", ["Contents/a.txt": "two\n", "Contents/c.txt": "new\n"])
        let root = scratch.at("srv")
        for pkg in [v1, v2] { #expect(try Harness.run(["iapkg", "unpack", pkg, "--into", root]).status == 0) }
        let folder = root + "/" + Self.product
        for version in ["1.0", "2.0"] {
            #expect(try ServeCheck.manifestProblems(folder + "/" + version) == [])
        }
        let manifest = try Data(contentsOf: URL(fileURLWithPath: folder + "/2.0/manifest.json"))
        var current = try pointer(root)
        #expect(current["version"] as? String == "2.0")
        #expect(current["manifestSHA256"] as? String == ServeCheck.sha256(manifest))
        #expect(current["schemaVersion"] as? Int == 1 && current["productIdentifier"] as? String == Self.product)

        // Rolling back moves current.json with the link; list counts content only.
        #expect(try Harness.run(["iapkg", "activate", root, Self.product, "1.0"]).status == 0)
        current = try pointer(root)
        #expect(current["version"] as? String == "1.0")
        #expect(try Harness.run(["iapkg", "list", root]).stdout.contains("1.0          4 files"))

        // A version installed before manifests existed gets one when activated.
        try FileManager.default.removeItem(atPath: folder + "/2.0/manifest.json")
        #expect(try Harness.run(["iapkg", "activate", root, Self.product, "2.0"]).status == 0)
        #expect(try ServeCheck.manifestProblems(folder + "/2.0") == [])
        #expect(
            try pointer(root)["manifestSHA256"] as? String
                == ServeCheck.sha256(try Data(contentsOf: URL(fileURLWithPath: folder + "/2.0/manifest.json"))))
        // …and an identical unpack still says "already installed".
        let again = try Harness.run(["iapkg", "unpack", v2, "--into", root])
        #expect(again.stdout.contains("already installed"), "\(again.stdout)\(again.stderr)")
        // A current.json out of step with the link (a kill between the two renames) is repaired.
        try Data("{}".utf8).write(to: URL(fileURLWithPath: folder + "/current.json"))
        #expect(try Harness.run(["iapkg", "activate", root, Self.product, "2.0"]).status == 0)
        #expect(try pointer(root)["version"] as? String == "2.0")
    }

    /// Unpack hashes files while writing them; its manifest must be byte for byte the one a walk of
    /// the installed version computes, with one syncfs for many entries, files of several 1 MiB
    /// pieces and symlinks.
    @Test func manifestWrittenWhileUnpackingEqualsOneComputedFromTheFolder() throws {
        let scratch = ScratchFolder()
        var files: [String: String] = ["Contents/big.bin": String(repeating: "0123456789abcdef", count: 170_000)]
        for i in 0..<300 { files["Contents/f\(i % 7)/n\(i).txt"] = String(repeating: "line \(i)\n", count: i) }
        let folder = try scratch.contentFolder("src", product: Self.product, version: "3.0", files: files)
        try FileManager.default.createSymbolicLink(atPath: folder + "/Contents/link", withDestinationPath: "f1/n1.txt")
        let pkg = scratch.at("many.pkg")
        #expect(try Harness.run(["iapkg", "build", folder, "-o", pkg]).status == 0)
        let root = scratch.at("srv")
        let unpacked = try Harness.run(["iapkg", "unpack", pkg, "--into", root])
        #expect(unpacked.status == 0, "\(unpacked.stderr)")
        let version = root + "/" + Self.product + "/3.0"
        let written = try Data(contentsOf: URL(fileURLWithPath: version + "/manifest.json"))
        let walked = try DeliveryManifest.make(
            productIdentifier: Self.product, version: "3.0", of: try DirectoryHandle.open(version))
        #expect(written == Data(walked))
        #expect(try ServeCheck.manifestProblems(version) == [])
        #expect(String(decoding: written, as: UTF8.self).contains("\"target\": \"f1/n1.txt\""))
    }
}
