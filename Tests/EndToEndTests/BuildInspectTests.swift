import Foundation
import Testing

/// The foundation issue's promises, through the built binary: build, inspect, interop with bsdtar.
@Suite(.onTestThreads) struct BuildInspectTests {
    let examples = ["book-chapter", "level-pack"]

    func example(_ name: String) -> String { Harness.packageRoot.appendingPathComponent("Examples/" + name).path }

    /// The paths below a folder, as inspect names them ("Contents/x"), sorted.
    func sourcePaths(_ folder: String) -> [String] {
        (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []).sorted()
    }

    func inspectJSON(_ pkg: String) throws -> [String: Any] {
        let result = try Harness.run(["iapkg", "inspect", pkg, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
    }

    @Test(arguments: ["product", "tree"])
    func buildThenInspectListsExactlyTheSourceFiles(layout: String) throws {
        let scratch = ScratchFolder()
        for name in examples {
            let pkg = scratch.at("\(name)-\(layout).pkg")
            let built = try Harness.run(["iapkg", "build", example(name), "-o", pkg, "--layout", layout])
            #expect(built.status == 0, "\(built.stderr)")
            #expect(built.stderr.contains("Built \(pkg)"))
            let report = try inspectJSON(pkg)
            #expect(report["schemaVersion"] as? Int == 1)
            #expect(report["shape"] as? String == layout)
            let files = try #require(report["files"] as? [[String: Any]])
            #expect(files.compactMap { $0["path"] as? String }.sorted() == sourcePaths(example(name)))
            #expect(report["fileCount"] as? Int == files.count)
            let expectedID =
                name == "book-chapter" ? "com.example.books.harbour.chapter1" : "com.example.game.levels.pack1"
            #expect(report["productIdentifier"] as? String == expectedID)
            #expect(report["contentVersion"] as? String == "1.0")
            if name == "level-pack" {
                let link = files.first { $0["path"] as? String == "Contents/latest-level.json" }
                #expect(link?["type"] as? String == "symlink")
                #expect(link?["linkTarget"] as? String == "levels/level2.json")
                #expect(report["extraKeys"] as? [String] == ["Folder"])
            }
            let sizes = Dictionary(
                uniqueKeysWithValues: files.map { ($0["path"] as? String ?? "", $0["size"] as? Int ?? -1) })
            #expect(
                sizes["ContentInfo.plist"]
                    == (try FileManager.default.attributesOfItem(atPath: example(name) + "/ContentInfo.plist")[.size]
                        as? Int))
        }
    }

    @Test func defaultOutputNameAndTextInspect() throws {
        let scratch = ScratchFolder()
        let built = try Harness.run(["iapkg", "build", example("book-chapter")], in: scratch.path)
        #expect(built.status == 0, "\(built.stderr)")
        let pkg = "com.example.books.harbour.chapter1-1.0.pkg"
        #expect(FileManager.default.fileExists(atPath: scratch.at(pkg)))
        let text = try Harness.run(["iapkg", "inspect", pkg], in: scratch.path)
        #expect(text.status == 0)
        #expect(text.stdout.contains("shape        product (component book-chapter.pkg)"))
        #expect(text.stdout.contains("Contents/images/cover.png"))
    }

    @Test func bsdtarListsTheProductArchiveAndItsPayload() throws {
        let scratch = ScratchFolder()
        let pkg = scratch.at("levels.pkg")
        #expect(try Harness.run(["iapkg", "build", example("level-pack"), "-o", pkg]).status == 0)
        let listing = try Harness.run(["bsdtar", "-tf", pkg])
        #expect(listing.status == 0, "\(listing.stderr)")
        #expect(
            Set(listing.stdout.split(separator: "\n").map(String.init))
                == [
                    "Distribution", "level-pack.pkg", "level-pack.pkg/Bom", "level-pack.pkg/PackageInfo",
                    "level-pack.pkg/Payload",
                ])

        let payloadListing = try Harness.shell("bsdtar -xOf '\(pkg)' '*/Payload' | bsdtar -tvf -")
        #expect(payloadListing.status == 0, "\(payloadListing.stderr)")
        let paths = payloadListing.stdout.split(separator: "\n").compactMap {
            $0.split(separator: " ").last.map(String.init)
        }
        #expect(paths.contains("./ContentInfo.plist"))
        #expect(paths.contains("./Contents/levels/world2/level3.json"))
        #expect(payloadListing.stdout.contains("root") || payloadListing.stdout.contains(" 0 "))

        // The Payload's bytes are the folder's bytes.
        try FileManager.default.createDirectory(atPath: scratch.at("out"), withIntermediateDirectories: true)
        let extract = try Harness.shell("bsdtar -xOf '\(pkg)' '*/Payload' | bsdtar -xf - -C '\(scratch.at("out"))'")
        #expect(extract.status == 0, "\(extract.stderr)")
        let original = try ScratchFolder.snapshotOf(example("level-pack"))
        #expect(try scratch.snapshot("out") == original)

        // GNU cpio reads it too.
        let cpio = try Harness.shell("bsdtar -xOf '\(pkg)' '*/Payload' | gzip -dc | cpio -it 2>/dev/null")
        #expect(cpio.stdout.split(separator: "\n").contains("./Contents/manifest.json"))
    }

    @Test func bsdtarExtractsTheTreeLayout() throws {
        let scratch = ScratchFolder()
        let pkg = scratch.at("tree.pkg")
        #expect(try Harness.run(["iapkg", "build", example("level-pack"), "-o", pkg, "--layout", "tree"]).status == 0)
        try FileManager.default.createDirectory(atPath: scratch.at("out"), withIntermediateDirectories: true)
        let extract = try Harness.run(["bsdtar", "-xf", pkg, "-C", scratch.at("out")])
        #expect(extract.status == 0, "\(extract.stderr)")
        #expect(try scratch.snapshot("out") == (try ScratchFolder.snapshotOf(example("level-pack"))))
    }

    @Test(arguments: ["product", "tree"])
    func buildsAreByteIdenticalWithSourceDateEpoch(layout: String) throws {
        let scratch = ScratchFolder()
        let folder = try scratch.contentFolder(
            "content", files: ["Contents/a.txt": "alpha\n", "Contents/sub/b.json": "{}\n"])
        let one = scratch.at("one.pkg")
        let two = scratch.at("two.pkg")
        let three = scratch.at("three.pkg")
        #expect(
            try Harness.run(
                ["iapkg", "build", folder, "-o", one, "--layout", layout],
                environment: ["SOURCE_DATE_EPOCH": "1700000000"]
            ).status == 0)
        // Touch every file: real mtimes change, the package must not.
        _ = try Harness.shell("sleep 1; find '\(folder)' -exec touch {} +")
        #expect(
            try Harness.run(
                ["iapkg", "build", folder, "-o", two, "--layout", layout],
                environment: ["SOURCE_DATE_EPOCH": "1700000000"]
            ).status == 0)
        #expect(
            try Harness.run([
                "iapkg", "build", folder, "-o", three, "--layout", layout, "--source-date-epoch", "1700000001",
            ]).status == 0)
        let a = try Data(contentsOf: URL(fileURLWithPath: one))
        let b = try Data(contentsOf: URL(fileURLWithPath: two))
        let c = try Data(contentsOf: URL(fileURLWithPath: three))
        #expect(a == b)
        #expect(a != c)
    }

    @Test func readsWhatBsdtarWrites() throws {
        let scratch = ScratchFolder()
        let pkg = scratch.at("bsdtar.pkg")
        let made = try Harness.run(["bsdtar", "--format", "xar", "-cf", pkg, "-C", example("level-pack"), "."])
        #expect(made.status == 0, "\(made.stderr)")
        let report = try inspectJSON(pkg)
        #expect(report["shape"] as? String == "tree")
        #expect(report["productIdentifier"] as? String == "com.example.game.levels.pack1")
        #expect(report["contentVersion"] as? String == "1.0")
        let files = try #require(report["files"] as? [[String: Any]])
        #expect(files.compactMap { $0["path"] as? String }.sorted() == sourcePaths(example("level-pack")))
    }
}

extension ScratchFolder {
    /// The snapshot of any folder.
    static func snapshotOf(_ path: String) throws -> [String: Data] {
        let parent = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        return try ScratchFolderView(path: parent).snapshot(name)
    }
}
