import Foundation
import IAPRules
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `iapkg validate` as a CI gate: options, exit statuses, folders, several inputs, report formats,
/// and packages made by `iapkg build` and by bsdtar.
@Suite(.onTestThreads) struct ValidateCLITests {
    let scratch = ScratchFolder()

    /// A valid tree package at `name`.pkg (or `file` when given).
    func good(
        _ name: String, version: String = "1.0", contents: [XarNode] = [.file("readme.txt", text: "hello\n")],
        file: String? = nil
    ) throws -> String {
        let path = scratch.at(file ?? name + ".pkg")
        try HostileTree.write(
            HostileTree.nodes(plist: Fixtures.plist(product: "com.example.test", version: version), contents: contents),
            to: path)
        return path
    }

    // MARK: - Options

    @Test func productIDMismatch() throws {
        let path = try good("pid")
        try Validate.expectError(
            path, Rule.plistProductIdMismatch, entry: "ContentInfo.plist", extra: ["--product-id", "com.example.other"])
        try Validate.expectClean(path, extra: ["--product-id", "com.example.test"])
    }

    @Test func newerThanAVersion() throws {
        let path = try good("v", version: "1.2")
        try Validate.expectError(path, Rule.plistVersionNotNewer, extra: ["--newer-than", "1.2"])
        try Validate.expectError(path, Rule.plistVersionNotNewer, extra: ["--newer-than", "1.10"])
        try Validate.expectClean(path, extra: ["--newer-than", "1.1.9"])
    }

    @Test func newerThanAPackage() throws {
        let path = try good("new", version: "2.0")
        let older = try good("older", version: "1.9")
        let same = try good("same", version: "2.0")
        try Validate.expectClean(path, extra: ["--newer-than", older])
        try Validate.expectError(path, Rule.plistVersionNotNewer, extra: ["--newer-than", same])
        // Only the reference's version is read: an older package that breaks rules still serves.
        let brokenOlder = try good("broken-older", version: "1.9", contents: [.file("x.bin", CodeSamples.elf)])
        try Validate.expectClean(path, extra: ["--newer-than", brokenOlder])
        let folder = try scratch.contentFolder("reference", version: "2.0")
        try Validate.expectError(path, Rule.plistVersionNotNewer, extra: ["--newer-than", folder])
    }

    @Test func newerThanNonsenseIsAUsageError() throws {
        let run = try Validate.run(try good("u"), ["--newer-than", "not-a-version"])
        #expect(run.status == 64, "\(run.dump)")
    }

    @Test func strictTurnsWarningsIntoErrors() throws {
        let path = try good("junk", contents: [.file("readme.txt", text: "hi\n"), .file(".DS_Store", text: "x")])
        try Validate.expectWarning(path, Rule.hygieneJunkFile)
        let strict = try Validate.run(path, ["--strict"])
        #expect(strict.status == 1, "\(strict.dump)")
        #expect(strict.errorRules.contains("hygiene-junk-file"), "\(strict.dump)")
    }

    @Test func hygieneWarnings() throws {
        try Validate.expectWarning(
            try good("macosx", contents: [.directory("__MACOSX", [.file("._readme.txt", text: "x")])]),
            Rule.hygieneJunkFile)
        try Validate.expectWarning(try good("empty", contents: []), Rule.hygieneEmptyContents)
        try Validate.expectWarning(try good("ext", file: "content.xar"), Rule.hygieneExtension)
    }

    @Test func maxSize() throws {
        let path = try good("size")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        try Validate.expectError(path, Rule.sizePackageLimit, extra: ["--max-size", String(size - 1)])
        try Validate.expectClean(path, extra: ["--max-size", String(size)])
    }

    /// Sparse files: the size rules are judged from the file size, without reading the bytes.
    @Test func packageSizeNearAndOverTheCap() throws {
        let near = try good("near")
        try FileHandle(forWritingAtPath: near).map {
            try $0.truncate(atOffset: 2_000_000_001)
            try $0.close()
        }
        let nearRun = try Validate.expectWarning(near, Rule.sizePackageNearLimit)
        #expect(nearRun.seconds < Validate.refusedBeforeDecodingSeconds, "took \(nearRun.seconds) s")
        let over = try good("over")
        try FileHandle(forWritingAtPath: over).map {
            try $0.truncate(atOffset: 2_147_483_649)
            try $0.close()
        }
        try Validate.expectError(over, Rule.sizePackageLimit)
    }

    @Test func unpackedTotalOverTheCapIsAnError() throws {
        let folder = try scratch.contentFolder("sparse")
        try scratch.write("sparse/Contents/big.bin", "")
        try FileHandle(forWritingAtPath: folder + "/Contents/big.bin").map {
            try $0.truncate(atOffset: 2_147_483_649)
            try $0.close()
        }
        try Validate.expectError(folder, Rule.sizeUnpackedLimit)
        try Validate.expectPasses(
            folder, without: Rule.sizeUnpackedLimit, extra: ["--max-unpacked-size", "3000000000"])
    }

    @Test func usageErrors() throws {
        #expect(try Harness.run(["iapkg", "validate"]).status == 64)
        #expect(try Harness.run(["iapkg", "validate", try good("f"), "--format", "yaml"]).status == 64)
        #expect(try Harness.run(["iapkg", "validate", try good("g"), "--max-size", "-5"]).status == 64)
    }

    // MARK: - Inputs

    @Test func folderWithAFifoAndAnELF() throws {
        let folder = try scratch.contentFolder("folder")
        try scratch.write("folder/Contents/tool.dat", Data(CodeSamples.elf))
        #expect(mkfifo(folder + "/Contents/pipe", 0o644) == 0)
        let run = try Validate.expectError(folder, Rule.entrySpecialFile, entry: "Contents/pipe")
        #expect(run.errorRules.contains("exec-elf"), "\(run.dump)")
        #expect(run.document?.inputs.first?.shape == "folder")
        try Validate.expectClean(try scratch.contentFolder("clean-folder"))
    }

    @Test func missingAndUnreadableInputsExit2() throws {
        let missing = try Validate.run(scratch.at("nope.pkg"))
        #expect(missing.status == 2, "\(missing.dump)")
        #expect(missing.document?.unreadable.first?.path == scratch.at("nope.pkg"))
        try scratch.write("plain.txt", "x")
        let notDir = try Validate.run(scratch.at("plain.txt/inner.pkg"))
        #expect(notDir.status == 2, "\(notDir.dump)")
        let mixed = try Validate.run([try good("fine"), scratch.at("nope.pkg")])
        #expect(mixed.status == 2, "\(mixed.dump)")
        #expect(mixed.document?.inputs.count == 1 && mixed.document?.unreadable.count == 1)
    }

    @Test func twoInputsOneInvalid() throws {
        let fine = try good("fine")
        let bad = try good("bad", contents: [.file("x.bin", CodeSamples.elf)])
        let run = try Validate.run([fine, bad])
        #expect(run.status == 1, "\(run.dump)")
        let inputs = try #require(run.document?.inputs)
        #expect(inputs.map(\.path) == [fine, bad])
        #expect(inputs.map(\.valid) == [true, false])
        #expect(inputs[1].findings.contains { $0.rule == "exec-elf" })
        #expect(run.document?.valid == false)
        let text = try Harness.run(["iapkg", "validate", fine, bad])
        #expect(text.status == 1)
        #expect(text.stdout.contains("\(fine): valid") && text.stdout.contains("\(bad): invalid"), "\(text.stdout)")
    }

    // MARK: - Real packages

    @Test func packagesBuiltByIapkgHaveNoFindings() throws {
        let folder = try scratch.contentFolder(
            "levels",
            files: [
                "Contents/readme.txt": "hello\n", "Contents/maps/one.map": "map\n",
                "Contents/maps/two.map": "map two\n",
            ])
        try FileManager.default.createSymbolicLink(
            atPath: folder + "/Contents/current.map", withDestinationPath: "maps/one.map")
        for layout in ["product", "tree"] {
            let out = scratch.at("built-\(layout).pkg")
            let build = try Harness.run(["iapkg", "build", folder, "-o", out, "--layout", layout])
            #expect(build.status == 0, "\(build.stderr)")
            let run = try Validate.expectClean(out)
            #expect(run.document?.inputs.first?.shape == layout)
        }
    }

    @Test func packageBuiltByBsdtarHasNoFindings() throws {
        let folder = try scratch.contentFolder(
            "bsd", files: ["Contents/readme.txt": "hello\n", "Contents/sub/data.bin": "data\n"])
        let out = scratch.at("bsdtar.pkg")
        let made = try Harness.run(["bsdtar", "--format", "xar", "-cf", out, "-C", folder, "."])
        #expect(made.status == 0, "\(made.stderr)")
        let run = try Validate.expectClean(out)
        #expect(run.document?.inputs.first?.contentVersion == "1.0")
    }

    /// bsdtar stores an empty file without <data>; an empty ContentInfo.plist must still be judged.
    @Test func emptyContentInfoFromBsdtar() throws {
        let folder = try scratch.contentFolder("emptyplist")
        try scratch.write("emptyplist/ContentInfo.plist", "")
        let out = scratch.at("emptyplist.pkg")
        #expect(try Harness.run(["bsdtar", "--format", "xar", "-cf", out, "-C", folder, "."]).status == 0)
        try Validate.expectError(out, Rule.plistSyntax, entry: "ContentInfo.plist")
    }

    // MARK: - Report formats

    @Test func junitParsesWithOneTestcasePerInput() throws {
        let fine = try good("fine")
        let bad = try good("bad", contents: [.file("x.bin", CodeSamples.pe)])
        let result = try Harness.run(["iapkg", "validate", fine, bad, scratch.at("missing.pkg"), "--format", "junit"])
        #expect(result.status == 2)
        let document = try XMLDocument(data: result.stdoutData)
        let cases = try document.nodes(forXPath: "//testcase")
        #expect(cases.count == 3)
        let names = cases.compactMap { ($0 as? XMLElement)?.attribute(forName: "name")?.stringValue }
        #expect(names == [fine, bad, scratch.at("missing.pkg")])
        let failures = try document.nodes(forXPath: "//testcase/failure")
        #expect(failures.count == 1)
        #expect(failures.first?.stringValue?.contains("error[exec-pe]") == true, "\(result.stdout)")
        #expect(try document.nodes(forXPath: "//testcase/error").count == 1)
    }

    @Test func githubAnnotations() throws {
        let bad = try good("bad", contents: [.file("x.bin", CodeSamples.elf), .file(".DS_Store", text: "x")])
        let result = try Harness.run(["iapkg", "validate", bad], environment: ["GITHUB_ACTIONS": "true"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("::error file=\(bad),title=iapkg exec-elf::Contents/x.bin"), "\(result.stderr)")
        #expect(result.stderr.contains("::warning file=\(bad),title=iapkg hygiene-junk-file::"), "\(result.stderr)")
        let quiet = try Harness.run(["iapkg", "validate", bad], environment: ["GITHUB_ACTIONS": "false"])
        #expect(!quiet.stderr.contains("::error"))
    }
}
