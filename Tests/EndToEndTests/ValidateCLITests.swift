import Foundation
import IAPRules
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `iapkg validate` as a CI gate: exit statuses, usage errors, several inputs, report formats, and
/// packages made by `iapkg build` and by bsdtar. What the options judge is tested in process
/// (IAPKitTests' ValidationOptionsTests).
@Suite(.onTestThreads) struct ValidateCLITests {
    let scratch = ScratchFolder()

    /// A valid tree package at `name`.pkg (or `file` when given).
    func good(
        _ name: String, version: String = "1.0", contents: [XarNode] = [.file("readme.txt", text: "hello\n")],
        file: String? = nil
    ) throws -> String {
        try scratch.validTree(name, version: version, contents: contents, file: file)
    }

    // MARK: - Options

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

    @Test func usageErrors() throws {
        #expect(try Harness.run(["iapkg", "validate"]).status == 64)
        #expect(try Harness.run(["iapkg", "validate", try good("f"), "--format", "yaml"]).status == 64)
        #expect(try Harness.run(["iapkg", "validate", try good("g"), "--max-size", "-5"]).status == 64)
    }

    // MARK: - Inputs

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

    /// 3 GiB of zeros (a ratio deflate reaches) from a small package: over the 2 GiB cap by default,
    /// accepted by a server that raises it; the declared total is judged before decoding.
    @Test func unpackedTotalOverTheCap() throws {
        var node = XarNode.file("zeros.bin", [UInt8](repeating: 0, count: 1 << 20))
        node.declaredSize = 3 << 30
        node.storedBytes = [UInt8](repeating: 0, count: 3 << 20)
        let path = try scratch.hostileTree("three-gib", [node])
        let run = try Validate.expectError(path, Rule.sizeUnpackedLimit)
        #expect(!run.rules.contains("size-declared-bomb"), "\(run.dump)")
        // Raised past the total, the cap no longer applies (the stored bytes then fail their own checks).
        let raised = try Validate.run(path, ["--max-unpacked-size", String(4 << 30)])
        #expect(!raised.rules.contains("size-unpacked-limit"), "\(raised.dump)")
    }
}
