import Foundation
import Testing

/// What an Xcode project can hold that iapkg refuses rather than guesses, each under its rule; and
/// the public demo project of ../shared/vectors/xcode with a stand-in for its missing file.
@Suite(.onTestThreads) struct XcodeProjectRefusalTests {
    /// A project with one content target copying `resources(project)`; returns its path.
    static func project(
        _ scratch: ScratchFolder, files: [String: String] = [:],
        _ resources: (inout XcodeProjectFixture) -> [String]
    ) throws -> String {
        try XcodeProjectTests.write(
            scratch,
            files.merging(["p/ContentInfo.plist": Fixtures.plist(product: "com.example.r", version: "1.0")]) { a, _ in a
            })
        var fixture = XcodeProjectFixture()
        let chosen = resources(&fixture)
        fixture.mainChildren += [fixture.file("ContentInfo.plist")]
        fixture.target("Content", resources: chosen, settings: ["INFOPLIST_FILE": "ContentInfo.plist"])
        return try fixture.write(in: scratch.at("p"))
    }

    /// The rule ids and messages `validate` reports for `path`, after checking that build refuses it too.
    static func refusal(_ path: String, _ scratch: ScratchFolder) throws -> [(rule: String, message: String)] {
        let build = try Harness.run(["iapkg", "build", path, "-o", scratch.at("out.pkg")])
        #expect(build.status == 1, "\(build.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.at("out.pkg")))
        let (status, findings) = try XcodeProjectTests.findings(path)
        #expect(status == 1)
        return findings.map { ($0["rule"] as? String ?? "", $0["message"] as? String ?? "") }
    }

    @Test func eachRefusalHasItsRule() throws {
        let cases: [(String, [String: String], (inout XcodeProjectFixture) -> [String], String, String)] = [
            (
                "built products", [:], { [$0.file("Other.bundle", tree: "BUILT_PRODUCTS_DIR")] },
                "xcode-path-unsupported",
                "BUILT_PRODUCTS_DIR"
            ),
            ("sdk", [:], { [$0.file("System/Library/x.txt", tree: "SDKROOT")] }, "xcode-path-unsupported", "SDKROOT"),
            (
                "asset catalog", ["p/Assets.xcassets/Contents.json": "{}"],
                { [$0.file("Assets.xcassets", type: "folder.assetcatalog")] }, "xcode-resource-compiled",
                "Assets.xcassets"
            ),
            (
                "storyboard by extension", ["p/Main.storyboard": "<x/>"], { [$0.file("Main.storyboard", type: "")] },
                "xcode-resource-compiled", "Main.storyboard"
            ),
            ("group", [:], { [$0.group([], path: "Folder")] }, "xcode-resource-compiled", "PBXGroup"),
            (
                "variant outside .lproj", ["p/Strings.strings": "x"],
                { [$0.variantGroup([$0.file("Strings.strings", name: "en")], name: "Strings.strings")] },
                "xcode-resource-compiled", "LANGUAGE.lproj"
            ),
            (
                "executable",
                ["p/tool.dat": "\u{7f}ELF\u{02}\u{01}\u{01}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}\u{00}"],
                { [$0.file("tool.dat")] }, "exec-elf", "ELF"
            ),
        ]
        for (name, files, resources, rule, words) in cases {
            let scratch = ScratchFolder()
            let path = try Self.project(scratch, files: files, resources)
            let found = try Self.refusal(path, scratch)
            let match = found.first { $0.rule == rule }
            #expect(match?.message.contains(words) == true, "\(name): \(found)")
        }
    }

    @Test func twoResourcesOfOneNameCollide() throws {
        let scratch = ScratchFolder()
        let path = try Self.project(scratch, files: ["p/a/same.txt": "1", "p/b/same.txt": "2"]) { fixture in
            let first = fixture.file("same.txt")
            let second = fixture.file("same.txt")
            fixture.mainChildren = [fixture.group([first], path: "a"), fixture.group([second], path: "b")]
            return [first, second]
        }
        let found = try Self.refusal(path, scratch)
        #expect(found.map(\.rule) == ["xcode-resource-duplicate"], "\(found)")
        #expect(found.first?.message.contains("p/b/same.txt") == true)
    }

    /// A plist or resource the project names through a symlink is copied as the file it leads to.
    @Test func aNamedSymlinkIsCopiedAsItsFile() throws {
        let scratch = ScratchFolder()
        try scratch.write("real/ContentInfo.plist", Fixtures.plist(product: "com.example.linked", version: "1.0"))
        try scratch.write("real/a.txt", "linked\n")
        try FileManager.default.createDirectory(atPath: scratch.at("p"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: scratch.at("p/ContentInfo.plist"), withDestinationPath: "../real/ContentInfo.plist")
        try FileManager.default.createSymbolicLink(atPath: scratch.at("p/a.txt"), withDestinationPath: "../real/a.txt")
        var fixture = XcodeProjectFixture()
        let file = fixture.file("a.txt")
        fixture.mainChildren = [file, fixture.file("ContentInfo.plist")]
        fixture.target("Content", resources: [file], settings: ["INFOPLIST_FILE": "ContentInfo.plist"])
        let path = try fixture.write(in: scratch.at("p"))
        let built = try Harness.run(["iapkg", "build", path, "-o", scratch.at("l.pkg")])
        #expect(built.status == 0, "\(built.stderr)")
        let inspect = try Harness.run(["iapkg", "inspect", scratch.at("l.pkg")])
        #expect(inspect.stdout.contains("file   644     7  Contents/a.txt"), "\(inspect.stdout)")
    }

    @Test func aSyntaxErrorNamesItsLineAndColumn() throws {
        let scratch = ScratchFolder()
        let path = try Self.project(scratch) { [$0.file("ContentInfo.plist")] }
        let file = path + "/project.pbxproj"
        var text = try String(contentsOfFile: file, encoding: .utf8)
        text = text.replacingOccurrences(
            of: "objectVersion = 46;", with: "objectVersion = 46;\n\tbroken = (a b);")
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let found = try Self.refusal(path, scratch)
        #expect(found.map(\.rule) == ["xcode-pbxproj-syntax"])
        #expect(
            found.first?.message.contains("line 7, column 14: expected ',' or ')' in an array, found 'b'") == true,
            "\(found)"
        )
        try "{ a = b; a = c; }".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(
            try Self.refusal(path, scratch).first?.message.contains("line 1, column 10: the key 'a' appears twice")
                == true)
        try FileManager.default.removeItem(atPath: file)
        #expect(try Self.refusal(path, scratch).first?.rule == "xcode-pbxproj-syntax")
    }

    /// The public demo project (an Xcode 6.3 In-App Purchase Content target), copied with a stand-in
    /// for its missing 5MB.txt: it builds into a package that validates and unpacks to its Contents/.
    @Test func thePublicDemoProjectBuildsWithAStandIn() throws {
        let vector = Harness.packageRoot.appendingPathComponent("../shared/vectors/xcode/nonconsumablehosted1").path
        guard FileManager.default.fileExists(atPath: vector) else { return }  // outside this project's machine
        let scratch = ScratchFolder()
        let copy = try Harness.shell("cp -R '\(vector)' demo && chmod -R u+w demo", in: scratch.path)
        #expect(copy.status == 0)
        let project = scratch.at("demo/nonconsumablehosted1.xcodeproj")
        let missing = try Self.refusal(project, scratch)
        #expect(missing.map(\.rule) == ["xcode-file-missing"] && missing[0].message.contains("5MB.txt"), "\(missing)")
        try scratch.write("demo/nonconsumablehosted1/5MB.txt", String(repeating: "0123456789abcdef\n", count: 300_000))
        let built = try Harness.run(
            ["iapkg", "build", project, "-o", scratch.at("demo.pkg")] + XcodeProjectTests.epoch)
        #expect(built.status == 0, "\(built.stderr)")
        let validate = try Harness.run(["iapkg", "validate", scratch.at("demo.pkg"), project, "--strict"])
        #expect(validate.status == 0, "\(validate.stdout)")
        let unpack = try Harness.run(["iapkg", "unpack", scratch.at("demo.pkg"), "--into", scratch.at("srv")])
        #expect(unpack.status == 0, "\(unpack.stderr)")
        let version = scratch.at("srv/uk.co.workingedge.test.inapp.nonconsumablehosted1/1.2")
        let listing = try Harness.shell(
            "ls Contents && cmp Contents/payload.txt '\(vector)/nonconsumablehosted1/payload.txt' && grep -c Folder ContentInfo.plist",
            in: version)
        #expect(listing.stdout == "5MB.txt\npayload.txt\n1\n", "\(listing.stdout)\(listing.stderr)")
    }
}
