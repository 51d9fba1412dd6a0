import Foundation
import Testing

/// inspect's listing is walked straight from the Bom for text and made into values for JSON: both
/// must list the same entries; and a Bom whose checksum check runs beside its parse is still told by
/// it, as is a ContentInfo.plist that is present but cannot be decoded.
@Suite(.onTestThreads) struct InspectListingTests {
    let scratch = ScratchFolder()

    /// (type, mode, size, path) of every row of inspect's text listing.
    func textRows(_ pkg: String) throws -> [[String]] {
        let result = try Harness.run(["iapkg", "inspect", pkg])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let head = try #require(lines.firstIndex { $0.hasPrefix("  TYPE  MODE") })
        return lines[(head + 1)...].filter { !$0.isEmpty }.map { line in
            let fields = line.split(separator: " ").map(String.init)  // the examples' paths hold no spaces
            return Array(fields.prefix(3)) + [fields.dropFirst(3).joined(separator: " ")]
        }
    }

    @Test(arguments: ["product", "tree"])
    func textAndJSONListTheSameEntries(layout: String) throws {
        let source = Harness.packageRoot.appendingPathComponent("Examples/level-pack").path
        let pkg = scratch.at("level-pack-\(layout).pkg")
        let built = try Harness.run(["iapkg", "build", source, "-o", pkg, "--layout", layout])
        #expect(built.status == 0, "\(built.stderr)")
        let json = try Harness.run(["iapkg", "inspect", pkg, "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: json.stdoutData) as? [String: Any])
        let files = try #require(report["files"] as? [[String: Any]])
        let shortType = ["file": "file", "directory": "dir", "symlink": "link"]
        let expected: [[String]] = files.map { file in
            let path = file["path"] as? String ?? ""
            let shown = (file["linkTarget"] as? String).map { path + " -> " + $0 } ?? path
            return [
                shortType[file["type"] as? String ?? ""] ?? "?", file["mode"] as? String ?? "",
                String(file["size"] as? Int ?? -1), shown,
            ]
        }
        #expect(try textRows(pkg) == expected)
        #expect(report["fileCount"] as? Int == files.count)
        let unpacked = files.filter { $0["type"] as? String == "file" }.reduce(0) { $0 + ($1["size"] as? Int ?? 0) }
        #expect(report["unpackedSize"] as? Int == unpacked)
    }

    @Test func aBomFailingItsExtractedChecksumIsToldSo() throws {
        var package = HostileProduct()
        package.editXar = { xar in xar.nodes[1].children[0].extractedChecksum = .wrong }
        let pkg = scratch.at("bad-bom-sum.pkg")
        try package.write(to: pkg)
        let result = try Harness.run(["iapkg", "inspect", pkg, "--json"])
        #expect(result.status == 1, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        let notes = try #require(report["notes"] as? [[String: Any]])
        #expect(notes.map { $0["rule"] as? String } == ["xar-extracted-checksum"], "\(notes)")
        #expect((report["files"] as? [Any])?.isEmpty == true)
        #expect(report["productIdentifier"] as? String == "com.example.test")
    }

    @Test func inspectSaysWhyAPresentPlistCannotBeDecoded() throws {
        let path = scratch.at("plist-bad.pkg")
        try HostileTree.write(HostileTree.nodes(), to: path) { $0.nodes[0].archivedChecksum = .wrong }
        let result = try Harness.run(["iapkg", "inspect", path])
        let said = result.stdout + result.stderr
        #expect(said.contains("ContentInfo.plist is present but could not be decoded"), "\(said)")
        #expect(said.contains("xar-archived-checksum"), "\(said)")
        #expect(!said.contains("has no ContentInfo.plist"), "\(said)")
    }
}
