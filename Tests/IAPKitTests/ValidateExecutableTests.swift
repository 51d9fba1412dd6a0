import Foundation
import IAPKitTestSupport
import IAPRules
import IAPSystem
import IAPTestSupport
import Testing

/// Executable code in disguise (PackageFormat.md §6 "Executable code"), in both shapes: tree packages with
/// hostile xar entries, product packages with hostile cpio entries.
@Suite(.onTestThreads) struct ValidateExecutableTests {
    let scratch = ScratchFolder()

    @Test func machOThinAndUniversal() throws {
        try Validate.expectError(
            try scratch.hostileTree("macho", [.file("level.dat", CodeSamples.machOThin)]), Rule.execMacho,
            entry: "Contents/level.dat")
        try Validate.expectError(
            try scratch.hostileProduct("cpio-fat", [.file("./Contents/music.bin", CodeSamples.machOUniversal)]),
            Rule.execMachoUniversal, entry: "Contents/music.bin")
        try Validate.expectError(
            try scratch.hostileTree("fat", [.file("x", CodeSamples.machOUniversal)]), Rule.execMachoUniversal)
    }

    @Test func javaClassFilePasses() throws {
        try Validate.expectClean(try scratch.hostileTree("java", [.file("Main.class", CodeSamples.javaClass)]))
        try Validate.expectClean(
            try scratch.hostileProduct("cpio-java", [.file("./Contents/Main.class", CodeSamples.javaClass)]))
    }

    @Test func elf() throws {
        try Validate.expectError(
            try scratch.hostileTree("elf", [.file("libgame.txt", CodeSamples.elf)]), Rule.execElf,
            entry: "Contents/libgame.txt")
        try Validate.expectError(
            try scratch.hostileProduct("cpio-elf", [.file("./Contents/a.png", CodeSamples.elf)]), Rule.execElf)
    }

    @Test func peAndPlainMZText() throws {
        try Validate.expectError(
            try scratch.hostileTree("pe", [.file("readme2.txt", CodeSamples.pe)]), Rule.execPe,
            entry: "Contents/readme2.txt")
        try Validate.expectError(
            try scratch.hostileProduct("cpio-pe", [.file("./Contents/x.dat", CodeSamples.pe)]), Rule.execPe)
        try Validate.expectClean(try scratch.hostileTree("mz", [.file("MZ.txt", CodeSamples.mzText)]))
        try Validate.expectClean(
            try scratch.hostileProduct("cpio-mz", [.file("./Contents/MZ.txt", CodeSamples.mzText)]))
    }

    @Test func peHeaderBeyondTheFirst4KiB() throws {
        try Validate.expectError(try scratch.hostileTree("farpe", [.file("far.dat", CodeSamples.farPE)]), Rule.execPe)
        try Validate.expectError(
            try scratch.hostileProduct("cpio-farpe", [.file("./Contents/far.dat", CodeSamples.farPE)]), Rule.execPe)
        let folder = try scratch.contentFolder("farpe-folder")
        try scratch.write("farpe-folder/Contents/far.dat", Data(CodeSamples.farPE))
        try Validate.expectError(folder, Rule.execPe, entry: "Contents/far.dat")
    }

    @Test func invalidUTF8InACpioName() throws {
        var item = CpioItem.file("./Contents/bad", text: "x")
        item.nameBytes = Array("./Contents/bad".utf8) + [0xFF, 0xFE]
        try Validate.expectError(try scratch.hostileProduct("cpio-utf8", [item]), Rule.entryNameInvalid)
    }

    @Test func fileTypedEntryWithALinkTarget() throws {
        var node = XarNode.file("both", text: "x")
        node.linkTarget = "../../etc/passwd"
        try Validate.expectError(try scratch.hostileTree("filelink", [node]), Rule.xarFileType, entry: "Contents/both")
    }

    @Test func webAssembly() throws {
        try Validate.expectError(
            try scratch.hostileTree("wasm", [.file("a.bin", [0x00, 0x61, 0x73, 0x6D, 0x01, 0x00, 0x00, 0x00])]),
            Rule.execWasm)
    }

    @Test func bundleNamesAreCode() throws {
        try Validate.expectError(
            try scratch.hostileTree("app", [.directory("Game.APP", [.file("Info.plist", text: "x")])]),
            Rule.execBundleName, entry: "Contents/Game.APP")
        try Validate.expectError(
            try scratch.hostileProduct("cpio-dylib", [.file("./Contents/libx.dylib", text: "not really")]),
            Rule.execBundleName)
    }

    @Test func scriptsAndLibraryNamesWarn() throws {
        try Validate.expectWarning(
            try scratch.hostileTree("script", [.file("run.sh", text: "#!/bin/sh\necho hi\n")]), Rule.execScript)
        try Validate.expectWarning(
            try scratch.hostileTree("so", [.file("libx.so", text: "data")]), Rule.execSharedLibrary)
    }

    @Test func anOdcLinkCarryingAnELFIsRefused() throws {
        // The first link is text; the second link of the same inode carries an ELF of its own.
        let text = Array("level data\n".utf8)
        var first = CpioItem.file("./Contents/a", text)
        first.ino = 77
        first.nlink = 2
        var second = CpioItem.file("./Contents/b", CodeSamples.elf)
        second.ino = 77
        second.nlink = 2
        let path = try scratch.hostileProduct("odc-elf-link", [first, second])
        let run = try Validate.expectError(path, Rule.execElf, entry: "Contents/b")
        #expect(
            !run.findings.contains { $0.rule == "exec-elf" && ($0.entry ?? "").hasSuffix("Contents/a") }, "\(run.dump)")
    }
}
