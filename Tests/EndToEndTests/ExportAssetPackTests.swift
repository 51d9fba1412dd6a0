import Foundation
import Testing

/// `iapkg export-asset-pack`: packages (gzip and pbzx Payloads), content folders, product folders
/// and whole stores become asset-pack folders whose manifests have exactly the fields and values
/// Apple's template for `ba-package` documents, and hold the content as unpack installs it.
@Suite(.onTestThreads) struct ExportAssetPackTests {
    /// The manifest at `folder`, checked against Apple's documented template by hand and by the
    /// published schema; returns it.
    static func manifest(_ folder: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/AssetPackManifest.json"))
        if OutputSchemaTests.python != nil {
            let problems = try OutputSchemaTests.violations(
                data, schema: OutputSchemaTests.schemas + "/asset-pack-manifest.schema.json")
            #expect(problems == nil, "\(problems ?? "")")
        }
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(object.keys) == ["assetPackID", "downloadPolicy", "fileSelectors", "platforms"])
        let policy = try #require(object["downloadPolicy"] as? [String: Any])
        #expect(policy.count == 1, "exactly one of essential, prefetch, onDemand: \(policy)")
        let (kind, body) = try #require(policy.first)
        switch kind {
        case "onDemand": #expect((body as? [String: Any])?.isEmpty == true)
        case "essential", "prefetch":
            let events = (body as? [String: Any])?["installationEventTypes"] as? [String] ?? []
            #expect(!events.isEmpty && Set(events).isSubset(of: ["firstInstallation", "subsequentUpdate"]))
        default: Issue.record("unknown policy \(kind)")
        }
        let selectors = try #require(object["fileSelectors"] as? [[String: String]])
        for selector in selectors {
            #expect(selector.count == 1)
            let (key, path) = try #require(selector.first)
            #expect(key == "file" || key == "directory")
            #expect(!path.hasPrefix("/") && !path.split(separator: "/").contains(".."))
            var isFolder: ObjCBool = false
            #expect(FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isFolder))
            #expect(isFolder.boolValue == (key == "directory"), "\(selector)")
        }
        let platforms = try #require(object["platforms"] as? [String])
        #expect(!platforms.isEmpty && Set(platforms).isSubset(of: ["iOS", "macOS", "tvOS", "visionOS"]))
        return object
    }

    @Test func everyKindOfInputBecomesAPackOfTheSameContent() throws {
        let scratch = ScratchFolder()
        let one = try scratch.contentFolder(
            "one", product: "com.example.export.one", version: "1.2",
            files: ["Contents/levels/a.json": "{\"a\": 1}\n", "Contents/readme.txt": "one\n"])
        let two = try scratch.contentFolder("two", product: "com.example.export.two", version: "3.0")
        #expect(try Harness.run(["iapkg", "build", one, "-o", scratch.at("one.pkg")]).status == 0)
        #expect(
            try Harness.run(["iapkg", "build", two, "--payload-compression", "pbzx", "-o", scratch.at("two.pkg")])
                .status == 0)
        #expect(
            try Harness.run([
                "iapkg", "unpack", scratch.at("one.pkg"), scratch.at("two.pkg"), "--into", scratch.at("srv"),
            ]).status == 0)

        let fromPackages = try Harness.run([
            "iapkg", "export-asset-pack", scratch.at("one.pkg"), scratch.at("two.pkg"), "--into", scratch.at("a"),
        ])
        #expect(fromPackages.status == 0, "\(fromPackages.stderr)")
        #expect(fromPackages.stdout.contains("com.example.export.one 1.2 →"), "\(fromPackages.stdout)")
        let store = try Harness.run([
            "iapkg", "export-asset-pack", scratch.at("srv"), "--into", scratch.at("b"), "--policy", "prefetch",
            "--platform", "iOS", "--platform", "visionOS", "--json",
        ])
        #expect(store.status == 0, "\(store.stderr)")
        try OutputSchemaTests.expectValid(store, "export-asset-pack.schema.json")
        let product = try Harness.run([
            "iapkg", "export-asset-pack", scratch.at("srv/com.example.export.one"), "--into", scratch.at("c"),
            "--policy", "essential", "--installation-event", "firstInstallation",
        ])
        #expect(product.status == 0, "\(product.stderr)")
        let folder = try Harness.run(["iapkg", "export-asset-pack", one, "--into", scratch.at("d")])
        #expect(folder.status == 0, "\(folder.stderr)")

        for (root, products) in [("a", ["one", "two"]), ("b", ["one", "two"]), ("c", ["one"]), ("d", ["one"])] {
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: scratch.at(root)).sorted()
                    == products.map { "com.example.export.\($0)" }, "\(root)")
            for name in products {
                let pack = scratch.at("\(root)/com.example.export.\(name)")
                let manifest = try Self.manifest(pack)
                #expect(manifest["assetPackID"] as? String == "com.example.export.\(name)")
                // The content as unpack installs it: ContentInfo.plist and Contents/, nothing else.
                let version = name == "one" ? "1.2" : "3.0"
                let diff = try Harness.shell(
                    "diff -r -x manifest.json -x AssetPackManifest.json '\(pack)' 'srv/com.example.export.\(name)/\(version)'",
                    in: scratch.path)
                #expect(diff.status == 0, "\(root)/\(name): \(diff.stdout)")
            }
        }
        let prefetch = try Self.manifest(scratch.at("b/com.example.export.one"))
        #expect(
            (prefetch["downloadPolicy"] as? [String: [String: [String]]])?["prefetch"]?["installationEventTypes"]
                == ["firstInstallation", "subsequentUpdate"])
        #expect(prefetch["platforms"] as? [String] == ["iOS", "visionOS"])
        let essential = try Self.manifest(scratch.at("c/com.example.export.one"))
        #expect(
            (essential["downloadPolicy"] as? [String: [String: [String]]])?["essential"]?["installationEventTypes"]
                == ["firstInstallation"])
        let onDemand = try Self.manifest(scratch.at("a/com.example.export.one"))
        #expect((onDemand["downloadPolicy"] as? [String: Any])?.keys.first == "onDemand")
        #expect(onDemand["platforms"] as? [String] == ["iOS"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.at("a")).allSatisfy { !$0.hasPrefix(".") })
    }

    @Test func invalidInputsAndTakenPlacesWriteNothing() throws {
        let scratch = ScratchFolder()
        let copy = try Harness.run([
            "cp", "-a", Harness.packageRoot.appendingPathComponent("Examples/broken-pack").path, scratch.at("broken"),
        ])
        #expect(copy.status == 0)
        let broken = try Harness.run(["iapkg", "export-asset-pack", scratch.at("broken"), "--into", scratch.at("out")])
        #expect(broken.status == 1 && broken.stderr.contains("error[exec-elf]"), "\(broken.stderr)")
        try scratch.write("bad.pkg", "not a package")
        let bad = try Harness.run(["iapkg", "export-asset-pack", scratch.at("bad.pkg"), "--into", scratch.at("out")])
        #expect(bad.status == 1 && bad.stderr.contains("error[xar-magic]"), "\(bad.stderr)")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: scratch.at("out"))) ?? [] == [])
        let good = try scratch.contentFolder("good", product: "com.example.export.good")
        #expect(try Harness.run(["iapkg", "export-asset-pack", good, "--into", scratch.at("out")]).status == 0)
        let again = try Harness.run(["iapkg", "export-asset-pack", good, "--into", scratch.at("out")])
        #expect(again.status == 1 && again.stderr.contains("already exists"), "\(again.stderr)")
        let usage = [
            ["--platform", "watchOS"], ["--installation-event", "firstInstallation"], ["--policy", "sometimes"],
        ]
        for options in usage {
            let result = try Harness.run(["iapkg", "export-asset-pack", good, "--into", scratch.at("x")] + options)
            #expect(result.status == 64, "\(options): \(result.stderr)")
        }
        let nothing = try Harness.run(["iapkg", "export-asset-pack", scratch.at("out"), "--into", scratch.at("y")])
        #expect(nothing.status == 1 && nothing.stderr.contains("is neither a package"), "\(nothing.stderr)")
    }

    /// What an export killed before its end left in `--into` (its private folders, named for its
    /// process) is removed by the next export; a running export's folders are left alone.
    @Test func aKilledExportsLeftoversGoWithTheNextExport() throws {
        let scratch = ScratchFolder()
        let gone = try Harness.start(["sleep", "0"])
        gone.waitUntilExit()
        let deadPID = gone.processIdentifier
        let livePID = ProcessInfo.processInfo.processIdentifier
        let leftovers = [".iapkg-export-\(deadPID)", ".iapkg-read-\(deadPID)-Ab12Cd"]
        let running = [".iapkg-export-\(livePID)", ".iapkg-read-\(livePID)-Xy34Zw"]
        for name in leftovers + running { try scratch.write("out/\(name)/Contents/half.bin", "half") }
        let good = try scratch.contentFolder("good", product: "com.example.export.leftovers")
        let export = try Harness.run(["iapkg", "export-asset-pack", good, "--into", scratch.at("out")])
        #expect(export.status == 0, "\(export.stderr)")
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: scratch.at("out")))
        #expect(names.isDisjoint(with: leftovers), "\(names)")
        #expect(Set(running).isSubset(of: names), "\(names)")
    }
}
