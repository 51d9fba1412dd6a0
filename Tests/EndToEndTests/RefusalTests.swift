import Foundation
import Testing

/// Every refusal names the path, exits with the documented status and leaves nothing behind.
@Suite(.onTestThreads) struct RefusalTests {
    /// Builds `folder` into `scratch/out/x.pkg`; returns the result and what `out/` holds afterwards.
    func build(_ folder: String, in scratch: ScratchFolder, extra: [String] = []) throws -> (Harness.Result, [String]) {
        try FileManager.default.createDirectory(atPath: scratch.at("out"), withIntermediateDirectories: true)
        let result = try Harness.run(["iapkg", "build", folder, "-o", scratch.at("out/x.pkg")] + extra)
        let left = try FileManager.default.contentsOfDirectory(atPath: scratch.at("out"))
        return (result, left)
    }

    func expectRefused(
        _ result: Harness.Result, _ left: [String], rule: String, naming entry: String,
        status: Int32 = 1, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.status == status, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.contains("[\(rule)]"), "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.contains(entry), "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(left.isEmpty, "left behind: \(left)", sourceLocation: sourceLocation)
    }

    @Test func missingContentInfo() throws {
        let scratch = ScratchFolder()
        let folder = try scratch.contentFolder("c")
        try FileManager.default.removeItem(atPath: folder + "/ContentInfo.plist")
        let (result, left) = try build(folder, in: scratch)
        expectRefused(result, left, rule: "shape-missing-contentinfo", naming: "ContentInfo.plist")
    }

    @Test func badProductIdentifierInPlist() throws {
        let scratch = ScratchFolder()
        let folder = try scratch.contentFolder("c", product: "com.example/../evil")
        let (result, left) = try build(folder, in: scratch)
        expectRefused(result, left, rule: "plist-product-id", naming: "ContentInfo.plist")
    }

    @Test func versionThatIsAPath() throws {
        let scratch = ScratchFolder()
        let folder = try scratch.contentFolder("c", version: "../../x")
        let (result, left) = try build(folder, in: scratch)
        expectRefused(result, left, rule: "plist-content-version", naming: "ContentInfo.plist")
    }

    @Test func initRefusesBadIdentifierAndNonEmptyFolder() throws {
        let scratch = ScratchFolder()
        let bad = try Harness.run(["iapkg", "init", "com.example/x"], in: scratch.path)
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("com.example/x"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty)

        try scratch.write("busy/keep.txt", "mine\n")
        let busy = try Harness.run(["iapkg", "init", "com.example.x", "busy"], in: scratch.path)
        #expect(busy.status == 1)
        #expect(busy.stderr.contains("busy"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.at("busy")) == ["keep.txt"])

        let good = try Harness.run(["iapkg", "init", "com.example.x"], in: scratch.path)
        #expect(good.status == 0, "\(good.stderr)")
        let plist = try String(contentsOfFile: scratch.at("com.example.x/ContentInfo.plist"), encoding: .utf8)
        #expect(plist.contains("<string>com.example.x</string>"))
        #expect(plist.contains("<string>1.0</string>"))
        var isDirectory: ObjCBool = false
        #expect(
            FileManager.default.fileExists(atPath: scratch.at("com.example.x/Contents"), isDirectory: &isDirectory)
                && isDirectory.boolValue)
    }

    @Test func executablesJudgedByBytes() throws {
        let scratch = ScratchFolder()
        let folder = try scratch.contentFolder("c")
        try scratch.write(
            "c/Contents/data.bin", Data([0xcf, 0xfa, 0xed, 0xfe, 7, 0, 0, 1] + [UInt8](repeating: 0, count: 64)))
        var (result, left) = try build(folder, in: scratch)
        expectRefused(result, left, rule: "exec-macho", naming: "Contents/data.bin")

        try FileManager.default.removeItem(atPath: folder + "/Contents/data.bin")
        try scratch.write(
            "c/Contents/level.dat", Data([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0] + [UInt8](repeating: 0, count: 64)))
        (result, left) = try build(folder, in: scratch)
        expectRefused(result, left, rule: "exec-elf", naming: "Contents/level.dat")
    }

    @Test func symlinkLeavingContents() throws {
        let scratch = ScratchFolder()
        let folder = try scratch.contentFolder("c")
        try FileManager.default.createSymbolicLink(
            atPath: folder + "/Contents/escape", withDestinationPath: "../../secret")
        let (result, left) = try build(folder, in: scratch)
        expectRefused(result, left, rule: "link-escape", naming: "Contents/escape")
    }

    @Test func fifo() throws {
        let scratch = ScratchFolder()
        let folder = try scratch.contentFolder("c")
        #expect(mkfifo(folder + "/Contents/pipe", 0o644) == 0)
        let (result, left) = try build(folder, in: scratch)
        expectRefused(result, left, rule: "entry-special-file", naming: "Contents/pipe")
    }

    @Test func unwritableOutput() throws {
        let scratch = ScratchFolder()
        let folder = try scratch.contentFolder("c")
        try scratch.write("plain-file", "x")
        let result = try Harness.run(["iapkg", "build", folder, "-o", scratch.at("plain-file/x.pkg")])
        #expect(result.status == 2)
        #expect(result.stderr.contains(scratch.at("plain-file/x.pkg")), "\(result.stderr)")

        try FileManager.default.createDirectory(atPath: scratch.at("out/x.pkg"), withIntermediateDirectories: true)
        let intoFolder = try Harness.run(["iapkg", "build", folder, "-o", scratch.at("out/x.pkg")])
        #expect(intoFolder.status == 2)
        #expect(intoFolder.stderr.contains("x.pkg"), "\(intoFolder.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.at("out")) == ["x.pkg"])
    }

    @Test func missingFolderAndUsage() throws {
        let missing = try Harness.run(["iapkg", "build", "/nonexistent/content"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("/nonexistent/content"))
        #expect(try Harness.run(["iapkg", "build"]).status == 64)
        #expect(try Harness.run(["iapkg", "build", "x", "--layout", "zip"]).status == 64)
        #expect(try Harness.run(["iapkg", "inspect", "/nonexistent.pkg"]).status == 2)
    }
}
