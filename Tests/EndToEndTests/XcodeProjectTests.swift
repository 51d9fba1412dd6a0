import Foundation
import Testing

/// `iapkg build` and `validate` of In-App Purchase Content Xcode projects made here for each path
/// and setting form: the package is byte for byte the one the equivalent content folder builds,
/// and every refusal is a finding under its xcode-* rule.
@Suite(.onTestThreads) struct XcodeProjectTests {
    static let epoch = ["--source-date-epoch", "1700000000"]

    /// Writes `files` (path → text) below the scratch folder.
    static func write(_ scratch: ScratchFolder, _ files: [String: String]) throws {
        for (path, text) in files { try scratch.write(path, text) }
    }

    /// The findings of `validate --json` on `path`.
    static func findings(_ path: String, _ extra: [String] = []) throws -> (Int32, [[String: Any]]) {
        let result = try Harness.run(["iapkg", "validate", path, "--json"] + extra)
        let document = try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any]
        let input = (document?["inputs"] as? [[String: Any]])?.first
        return (result.status, input?["findings"] as? [[String: Any]] ?? [])
    }

    /// A project using every path form: a group with a path, a group without one, SOURCE_ROOT,
    /// SRCROOT, <absolute>, a folder reference and a variant group; INFOPLIST_FILE through
    /// $(SRCROOT) and ${TARGET_NAME}, PRODUCT_NAME through $(TARGET_NAME).
    static func everyForm(_ scratch: ScratchFolder) throws -> String {
        try write(
            scratch,
            [
                "proj/Content/ContentInfo.plist": Fixtures.plist(
                    product: "com.example.xcode.pack", version: "1.3",
                    extra: "<key>Folder</key><string>Content</string>"),
                "proj/Content/Art/cover.txt": "a cover\n",
                "proj/Content/notes.txt": "notes\n",
                "proj/Shared/readme.txt": "read me\n",
                "proj/Shared/extra.json": "{\"extra\": true}\n",
                "elsewhere/abs.txt": "absolute\n",
                "proj/Levels/one.json": "{\"level\": 1}\n",
                "proj/Levels/deep/two.json": "{\"level\": 2}\n",
                "proj/Content/en.lproj/Strings.strings": "\"hello\" = \"hello\";\n",
                "proj/Content/fr.lproj/Strings.strings": "\"hello\" = \"bonjour\";\n",
            ])
        var project = XcodeProjectFixture()
        let cover = project.file("cover.txt")
        let art = project.group([cover], path: "Art")
        let notes = project.file("notes.txt")
        let virtual = project.group([notes], name: "Virtual")
        let plist = project.file("ContentInfo.plist", type: "text.plist.xml")
        let english = project.file("en.lproj/Strings.strings", name: "en")
        let french = project.file("fr.lproj/Strings.strings", name: "fr")
        let strings = project.variantGroup([english, french], name: "Strings.strings")
        let content = project.group([art, virtual, plist, strings], path: "Content")
        let readme = project.file("Shared/readme.txt", tree: "SOURCE_ROOT")
        let extra = project.file("Shared/extra.json", tree: "SRCROOT")
        let absolute = project.file(scratch.at("elsewhere/abs.txt"), tree: "<absolute>")
        let levels = project.file("Levels", type: "folder")
        project.mainChildren = [content, project.group([readme, extra, absolute], name: "Shared files"), levels]
        project.target(
            "Content", resources: [cover, notes, strings, readme, extra, absolute, levels],
            settings: [
                "INFOPLIST_FILE": "$(SRCROOT)/${TARGET_NAME}/ContentInfo.plist", "PRODUCT_NAME": "$(TARGET_NAME)Pack",
                "WRAPPER_EXTENSION": "",
            ])
        return try project.write(in: scratch.at("proj"))
    }

    @Test func everyPathFormBuildsTheEquivalentFolderByteForByte() throws {
        let scratch = ScratchFolder()
        let project = try Self.everyForm(scratch)
        let built = try Harness.run(["iapkg", "build", project, "-o", scratch.at("project.pkg")] + Self.epoch)
        #expect(built.status == 0, "\(built.stderr)")
        // The same content as a folder named PRODUCT_NAME.
        let copy = try Harness.shell(
            """
            set -e; mkdir -p ContentPack/Contents/en.lproj ContentPack/Contents/fr.lproj
            cp proj/Content/ContentInfo.plist ContentPack/
            cp proj/Content/Art/cover.txt proj/Content/notes.txt proj/Shared/readme.txt proj/Shared/extra.json elsewhere/abs.txt ContentPack/Contents/
            cp -R proj/Levels ContentPack/Contents/Levels
            cp proj/Content/en.lproj/Strings.strings ContentPack/Contents/en.lproj/
            cp proj/Content/fr.lproj/Strings.strings ContentPack/Contents/fr.lproj/
            """, in: scratch.path)
        #expect(copy.status == 0, "\(copy.stderr)")
        let folder = try Harness.run(
            ["iapkg", "build", scratch.at("ContentPack"), "-o", scratch.at("folder.pkg")] + Self.epoch)
        #expect(folder.status == 0, "\(folder.stderr)")
        #expect(FileManager.default.contentsEqual(atPath: scratch.at("project.pkg"), andPath: scratch.at("folder.pkg")))
        let tree = try Harness.run(
            ["iapkg", "build", project, "--layout", "tree", "-o", scratch.at("project-tree.pkg")] + Self.epoch)
        let folderTree = try Harness.run(
            ["iapkg", "build", scratch.at("ContentPack"), "--layout", "tree", "-o", scratch.at("folder-tree.pkg")]
                + Self.epoch)
        #expect(tree.status == 0 && folderTree.status == 0)
        #expect(
            FileManager.default.contentsEqual(
                atPath: scratch.at("project-tree.pkg"), andPath: scratch.at("folder-tree.pkg")))
        // It validates, unpacks to the folder's Contents/, and keeps the plist's extra key.
        let (status, findings) = try Self.findings(project, ["--strict"])
        #expect(status == 0, "\(findings)")
        let inspect = try Harness.run(["iapkg", "inspect", scratch.at("project.pkg")])
        #expect(inspect.stdout.contains("extra keys   Folder"), "\(inspect.stdout)")
        #expect(inspect.stdout.contains("component ContentPack.pkg"), "\(inspect.stdout)")
        let unpack = try Harness.run(["iapkg", "unpack", scratch.at("project.pkg"), "--into", scratch.at("srv")])
        #expect(unpack.status == 0, "\(unpack.stderr)")
        let diff = try Harness.shell(
            "diff -r srv/com.example.xcode.pack/1.3/Contents ContentPack/Contents", in: scratch.path)
        #expect(diff.status == 0, "\(diff.stdout)")
    }

    @Test func missingAndUnlistedFilesAreReported() throws {
        let scratch = ScratchFolder()
        let project = try Self.everyForm(scratch)
        try scratch.write("proj/Content/forgotten.txt", "not in the target\n")
        let (warned, warnings) = try Self.findings(project)
        #expect(warned == 0)
        #expect(warnings.map { $0["rule"] as? String } == ["xcode-file-unlisted"], "\(warnings)")
        #expect((warnings.first?["entry"] as? String)?.hasSuffix("proj/Content/forgotten.txt") == true)
        #expect(try Self.findings(project, ["--strict"]).0 == 1)
        try FileManager.default.removeItem(atPath: scratch.at("proj/Shared/readme.txt"))
        try FileManager.default.removeItem(atPath: scratch.at("proj/Content/ContentInfo.plist"))
        let (status, findings) = try Self.findings(project)
        #expect(status == 1)
        let missing = findings.filter { $0["rule"] as? String == "xcode-file-missing" }.compactMap {
            $0["entry"] as? String
        }
        #expect(missing.sorted() == ["ContentInfo.plist", "Contents/readme.txt"], "\(findings)")
        #expect(!findings.contains { $0["rule"] as? String == "shape-missing-contentinfo" })
        let build = try Harness.run(["iapkg", "build", project, "-o", scratch.at("out.pkg")])
        #expect(build.status == 1)
        #expect(build.stderr.contains("error[xcode-file-missing] Contents/readme.txt"), "\(build.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.at("out.pkg")))
    }

    /// A one-file project whose target has `settings`; returns the project path.
    static func simple(_ scratch: ScratchFolder, settings: [String: String], projectSettings: [String: String] = [:])
        throws -> String
    {
        try write(
            scratch,
            [
                "p/Content/ContentInfo.plist": Fixtures.plist(product: "com.example.settings", version: "1.0"),
                "p/Content/a.txt": "a\n",
            ])
        var project = XcodeProjectFixture()
        let file = project.file("a.txt")
        let plist = project.file("ContentInfo.plist")
        project.mainChildren = [project.group([file, plist], path: "Content")]
        project.projectSettings = projectSettings
        project.target("Content", resources: [file], settings: settings)
        return try project.write(in: scratch.at("p"))
    }

    @Test func buildSettingsExpandAsXcodeDoesAndAnythingElseIsNamed() throws {
        let good: [([String: String], [String: String])] = [
            (["INFOPLIST_FILE": "Content/ContentInfo.plist"], [:]),
            (["INFOPLIST_FILE": "${SRCROOT}/$(TARGET_NAME)/ContentInfo.plist"], [:]),
            (["INFOPLIST_FILE": "$(CONTENT_DIR)/ContentInfo.plist", "CONTENT_DIR": "$(PRODUCT_NAME)"], [:]),
            (["INFOPLIST_FILE": "$(inherited)"], ["INFOPLIST_FILE": "$(PROJECT_DIR)/Content/ContentInfo.plist"]),
            ([:], ["INFOPLIST_FILE": "$(SOURCE_ROOT)/$(PROJECT_NAME)/ContentInfo.plist"]),
        ]
        for (settings, projectSettings) in good {
            let scratch = ScratchFolder()
            let project = try Self.simple(scratch, settings: settings, projectSettings: projectSettings)
            let (status, findings) = try Self.findings(project)
            #expect(status == 0, "\(settings) \(projectSettings): \(findings)")
        }
        let bad: [([String: String], String)] = [
            (["INFOPLIST_FILE": "$(CONTENT_DIR)/ContentInfo.plist"], "CONTENT_DIR"),
            (["INFOPLIST_FILE": "$(TARGET_NAME:rfc1034identifier)/ContentInfo.plist"], "TARGET_NAME:rfc1034identifier"),
            (["INFOPLIST_FILE": "$(A)", "A": "$(B)", "B": "$(A)"], "A → B → A"),
            (["INFOPLIST_FILE": "$HOME/ContentInfo.plist"], "'$'"),
            (["INFOPLIST_FILE": "$(SDKROOT)/ContentInfo.plist"], "SDKROOT"),
            (["PRODUCT_NAME": "x"], "INFOPLIST_FILE"),
        ]
        for (settings, named) in bad {
            let scratch = ScratchFolder()
            let project = try Self.simple(scratch, settings: settings)
            let (status, findings) = try Self.findings(project)
            #expect(status == 1)
            let finding = findings.first { $0["rule"] as? String == "xcode-build-setting" }
            #expect((finding?["message"] as? String)?.contains(named) == true, "\(settings): \(findings)")
            let build = try Harness.run(["iapkg", "build", project, "-o", scratch.at("x.pkg")])
            #expect(build.status == 1 && build.stderr.contains("error[xcode-build-setting]"), "\(build.stderr)")
        }
    }

    @Test func severalTargetsNeedTargetAndTheErrorListsThem() throws {
        let scratch = ScratchFolder()
        try Self.write(
            scratch,
            [
                "p/One/ContentInfo.plist": Fixtures.plist(product: "com.example.one", version: "1.0"),
                "p/Two/ContentInfo.plist": Fixtures.plist(product: "com.example.two", version: "2.0"),
                "p/One/a.txt": "one\n", "p/Two/b.txt": "two\n",
            ])
        var project = XcodeProjectFixture()
        let a = project.file("a.txt")
        let b = project.file("b.txt")
        let one = project.group([a, project.file("ContentInfo.plist")], path: "One")
        let two = project.group([b, project.file("ContentInfo.plist")], path: "Two")
        project.mainChildren = [one, two]
        project.target("One", resources: [a], settings: ["INFOPLIST_FILE": "One/ContentInfo.plist"])
        project.target("Two", resources: [b], settings: ["INFOPLIST_FILE": "Two/ContentInfo.plist"])
        project.target("App", resources: [], settings: [:], productType: "com.apple.product-type.application")
        let path = try project.write(in: scratch.at("p"), name: "Store")
        let build = try Harness.run(["iapkg", "build", path, "-o", scratch.at("x.pkg")])
        #expect(build.status == 1)
        #expect(
            build.stderr.contains("error[xcode-target-ambiguous]")
                && build.stderr.contains("2 In-App Purchase Content targets (One, Two); choose one with --target NAME"),
            "\(build.stderr)")
        let two2 = try Harness.run(["iapkg", "build", path, "--target", "Two", "-o", scratch.at("two.pkg")])
        #expect(two2.status == 0 && two2.stderr.contains("com.example.two 2.0"), "\(two2.stderr)")
        let wrong = try Harness.run(["iapkg", "build", path, "--target", "App"])
        #expect(wrong.stderr.contains("error[xcode-no-content-target]") && wrong.stderr.contains("One, Two"))
        let (status, findings) = try Self.findings(path, ["--target", "One"])
        #expect(status == 0, "\(findings)")
        #expect(try Self.findings(path).1.first?["rule"] as? String == "xcode-target-ambiguous")
    }
}
