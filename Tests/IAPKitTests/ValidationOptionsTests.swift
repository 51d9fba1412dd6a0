import Foundation
import IAPKitTestSupport
import IAPRules
import IAPTestSupport
import Testing

/// validate's options (--product-id, --newer-than, --max-size, --max-unpacked-size), the hygiene
/// warnings and folder inputs, judged in process by the validator the CLI calls; the binary's exit
/// statuses and report formats are EndToEndTests' ValidateCLITests.
@Suite(.onTestThreads) struct ValidationOptionsTests {
    let scratch = ScratchFolder()

    @Test func productIDMismatch() throws {
        let path = try scratch.validTree("pid")
        try Validate.expectError(
            path, Rule.plistProductIdMismatch, entry: "ContentInfo.plist", extra: ["--product-id", "com.example.other"])
        try Validate.expectClean(path, extra: ["--product-id", "com.example.test"])
    }

    @Test func newerThanAVersion() throws {
        let path = try scratch.validTree("v", version: "1.2")
        try Validate.expectError(path, Rule.plistVersionNotNewer, extra: ["--newer-than", "1.2"])
        try Validate.expectError(path, Rule.plistVersionNotNewer, extra: ["--newer-than", "1.10"])
        try Validate.expectClean(path, extra: ["--newer-than", "1.1.9"])
    }

    @Test func newerThanAPackage() throws {
        let path = try scratch.validTree("new", version: "2.0")
        let older = try scratch.validTree("older", version: "1.9")
        let same = try scratch.validTree("same", version: "2.0")
        try Validate.expectClean(path, extra: ["--newer-than", older])
        try Validate.expectError(path, Rule.plistVersionNotNewer, extra: ["--newer-than", same])
        // Only the reference's version is read: an older package that breaks rules still serves.
        let brokenOlder = try scratch.validTree(
            "broken-older", version: "1.9", contents: [.file("x.bin", CodeSamples.elf)])
        try Validate.expectClean(path, extra: ["--newer-than", brokenOlder])
        let folder = try scratch.contentFolder("reference", version: "2.0")
        try Validate.expectError(path, Rule.plistVersionNotNewer, extra: ["--newer-than", folder])
    }

    @Test func hygieneWarnings() throws {
        try Validate.expectWarning(
            try scratch.validTree("macosx", contents: [.directory("__MACOSX", [.file("._readme.txt", text: "x")])]),
            Rule.hygieneJunkFile)
        try Validate.expectWarning(try scratch.validTree("empty", contents: []), Rule.hygieneEmptyContents)
        try Validate.expectWarning(try scratch.validTree("ext", file: "content.xar"), Rule.hygieneExtension)
    }

    @Test func maxSize() throws {
        let path = try scratch.validTree("size")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        try Validate.expectError(path, Rule.sizePackageLimit, extra: ["--max-size", String(size - 1)])
        try Validate.expectClean(path, extra: ["--max-size", String(size)])
    }

    /// Sparse files: the size rules are judged from the file size, without reading the bytes.
    @Test func packageSizeNearAndOverTheCap() throws {
        let near = try scratch.validTree("near")
        try FileHandle(forWritingAtPath: near).map {
            try $0.truncate(atOffset: 2_000_000_001)
            try $0.close()
        }
        let nearRun = try Validate.expectWarning(near, Rule.sizePackageNearLimit)
        #expect(nearRun.seconds < Validate.refusedBeforeDecodingSeconds, "took \(nearRun.seconds) s")
        let over = try scratch.validTree("over")
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

    @Test func folderWithAFifoAndAnELF() throws {
        let folder = try scratch.contentFolder("folder")
        try scratch.write("folder/Contents/tool.dat", Data(CodeSamples.elf))
        #expect(mkfifo(folder + "/Contents/pipe", 0o644) == 0)
        let run = try Validate.expectError(folder, Rule.entrySpecialFile, entry: "Contents/pipe")
        #expect(run.errorRules.contains("exec-elf"), "\(run.dump)")
        #expect(run.document?.inputs.first?.shape == "folder")
        try Validate.expectClean(try scratch.contentFolder("clean-folder"))
    }
}
