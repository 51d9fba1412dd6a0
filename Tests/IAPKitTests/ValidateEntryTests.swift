import Foundation
import IAPKitTestSupport
import IAPRules
import IAPSystem
import IAPTestSupport
import Testing

/// Entry, link and special-file rules (PackageFormat.md §6 "Entries", "Links"), in both shapes:
/// tree packages with hostile xar entries, product packages with hostile cpio entries.
@Suite(.onTestThreads) struct ValidateEntryTests {
    let scratch = ScratchFolder()

    /// A tree package whose Contents/ holds `contents`.
    func tree(_ name: String, _ contents: [XarNode], root: [XarNode] = []) throws -> String {
        try scratch.hostileTree(name, contents, root: root)
    }

    /// A product package: a valid plist and Contents/, then `items`, Bom matching.
    func product(_ name: String, _ items: [CpioItem]) throws -> String {
        try scratch.hostileProduct(name, items)
    }

    // MARK: - Names

    @Test func traversalInXarName() throws {
        try Validate.expectError(
            try tree("dotdot", [.directory("..", [.file("x", text: "x")])]), Rule.entryNameInvalid, entry: "..")
        try Validate.expectError(
            try tree("slash", [.file("../../x", text: "x")]), Rule.entryNameInvalid, entry: "../../x")
    }

    @Test func traversalInCpioName() throws {
        try Validate.expectError(
            try product("cpio-dotdot", [.file("./Contents/../../x", text: "x")]),
            Rule.entryNameInvalid, entry: "Contents/../../x")
    }

    @Test func absolutePaths() throws {
        try Validate.expectError(
            try tree("abs", [], root: [.file("/etc/evil", text: "x")]), Rule.entryAbsolutePath, entry: "/etc/evil")
        try Validate.expectError(
            try product("cpio-abs", [.file("/etc/evil", text: "x")]), Rule.entryAbsolutePath, entry: "/etc/evil")
    }

    @Test func controlCharactersAndBackslashes() throws {
        try Validate.expectError(try tree("ctl", [.file("a\tb", text: "x")]), Rule.entryNameInvalid)
        try Validate.expectError(try product("cpio-bs", [.file("./Contents/a\\b", text: "x")]), Rule.entryNameInvalid)
    }

    @Test func componentAndPathLength() throws {
        try Validate.expectError(
            try tree("long", [.file(String(repeating: "n", count: 256), text: "x")]), Rule.entryComponentLength)
        let deep = (0..<6).map { _ in String(repeating: "d", count: 200) }.joined(separator: "/")
        try Validate.expectError(try product("deep", [.file("./Contents/" + deep, text: "x")]), Rule.entryPathLength)
        try Validate.expectClean(try tree("ok255", [.file(String(repeating: "n", count: 255), text: "x")]))
    }

    @Test func bidiOverrideWarns() throws {
        try Validate.expectWarning(try tree("bidi", [.file("cod\u{202E}txt.exe", text: "x")]), Rule.entryBidi)
    }

    @Test func extendedAttributesAndFlagsWarn() throws {
        let path = scratch.at("ea.pkg")
        try HostileTree.write(HostileTree.nodes(), to: path) { xar in
            xar.editTOC = {
                $0.replacingOccurrences(
                    of: "<name>readme.txt</name>",
                    with: "<name>readme.txt</name><flags><UserNoDump/></flags>")
            }
        }
        try Validate.expectWarning(path, Rule.entryFlags)
        let ea = scratch.at("xattr.pkg")
        try HostileTree.write(HostileTree.nodes(), to: ea) { xar in
            xar.editTOC = {
                $0.replacingOccurrences(
                    of: "<name>readme.txt</name>",
                    with: "<name>readme.txt</name><ea id=\"0\"><name>user.note</name></ea>")
            }
        }
        try Validate.expectWarning(ea, Rule.entryXattr)
    }

    @Test func duplicateNames() throws {
        try Validate.expectError(
            try tree("dup", [.file("a.txt", text: "1"), .file("a.txt", text: "2")]), Rule.entryDuplicate, entry: "a.txt"
        )
        try Validate.expectError(
            try product("cpio-dup", [.file("./Contents/a.txt", text: "1"), .file("./Contents/a.txt", text: "2")]),
            Rule.entryDuplicate, entry: "a.txt")
    }

    @Test func unicodeCollidingNames() throws {
        let nfc = "caf\u{E9}.txt"
        let nfd = "cafe\u{301}.txt"
        #expect(Array(nfc.utf8) != Array(nfd.utf8))
        try Validate.expectError(
            try tree("nfc", [.file(nfc, text: "1"), .file(nfd, text: "2")]), Rule.entryUnicodeCollision)
        try Validate.expectError(
            try product("cpio-nfc", [.file("./Contents/" + nfc, text: "1"), .file("./Contents/" + nfd, text: "2")]),
            Rule.entryUnicodeCollision)
        try Validate.expectClean(try tree("nfc-alone", [.file(nfc, text: "1"), .file("cafe.txt", text: "2")]))
    }

    @Test func caseCollisionWarns() throws {
        try Validate.expectWarning(
            try tree("case", [.file("Level.dat", text: "1"), .file("level.dat", text: "2")]), Rule.entryCaseCollision)
    }

    @Test func fileThatIsAlsoAFolder() throws {
        try Validate.expectError(
            try product("filedir", [.file("./Contents/a", text: "1"), .file("./Contents/a/b", text: "2")]),
            Rule.entryFileDirConflict, entry: "Contents/a/b")
    }

    // MARK: - Special files and modes

    @Test func deviceNodes() throws {
        try Validate.expectError(
            try tree("chr", [XarNode(name: "tty", type: "character special")]), Rule.entrySpecialFile, entry: "tty")
        try Validate.expectError(
            try tree("blk", [XarNode(name: "disk", type: "block special")]), Rule.entrySpecialFile, entry: "disk")
        try Validate.expectError(
            try product("cpio-chr", [CpioItem(path: "./Contents/null", mode: 0o020666)]),
            Rule.entrySpecialFile, entry: "Contents/null")
    }

    @Test func fifosAndSockets() throws {
        try Validate.expectError(
            try tree("fifo", [XarNode(name: "pipe", type: "fifo")]), Rule.entrySpecialFile, entry: "pipe")
        try Validate.expectError(
            try tree("sock", [XarNode(name: "sock", type: "socket")]), Rule.entrySpecialFile, entry: "sock")
        try Validate.expectError(
            try product("cpio-fifo", [CpioItem(path: "./Contents/pipe", mode: 0o010644)]),
            Rule.entrySpecialFile, entry: "Contents/pipe")
    }

    @Test func setuidSetgidSticky() throws {
        try Validate.expectError(
            try tree("suid", [.file("run", text: "x", mode: "04755")]), Rule.entrySetid, entry: "run")
        try Validate.expectError(
            try tree("sticky", [.directory("tmp", mode: "01777", [.file("a", text: "a")])]), Rule.entrySetid,
            entry: "tmp"
        )
        try Validate.expectError(
            try product("cpio-sgid", [.file("./Contents/run", text: "x", mode: 0o2644)]),
            Rule.entrySetid, entry: "Contents/run")
    }

    @Test func executeBitsOnDataWarn() throws {
        try Validate.expectWarning(try tree("xbit", [.file("data.bin", text: "data", mode: "0755")]), Rule.execModeBits)
    }

    // MARK: - Symlinks

    @Test func symlinkInsideContentsIsFine() throws {
        try Validate.expectClean(
            try tree("link-ok", [.file("a.txt", text: "a"), .directory("sub", [.symlink("b", to: "../a.txt")])]))
        try Validate.expectClean(try product("cpio-link-ok", [.symlink("./Contents/b", to: "readme.txt")]))
    }

    @Test func symlinkChainThatEscapes() throws {
        // up -> .. (Contents' parent: the root, allowed as a hop), out -> up/../.. (above the root).
        let nodes: [XarNode] = [.symlink("up", to: ".."), .symlink("out", to: "up/../x")]
        let run = try Validate.expectError(try tree("chain", nodes), Rule.linkEscape, entry: "Contents/out")
        #expect(run.findings.contains { $0.rule == "link-escape" && $0.entry == "Contents/up" }, "\(run.dump)")
        try Validate.expectError(
            try product(
                "cpio-chain",
                [
                    .symlink("./Contents/hop", to: "sub/../.."),
                    .symlink("./Contents/away", to: "hop/../../x"),
                ]),
            Rule.linkEscape, entry: "Contents/away")
    }

    @Test func symlinkThatLeavesContentsButNotTheRoot() throws {
        try Validate.expectError(
            try tree("to-plist", [.symlink("p", to: "../ContentInfo.plist")]), Rule.linkEscape, entry: "Contents/p")
    }

    @Test func absoluteEmptyLoopingAndDanglingLinks() throws {
        try Validate.expectError(try tree("abs-link", [.symlink("passwd", to: "/etc/passwd")]), Rule.linkAbsolute)
        try Validate.expectError(try tree("loop", [.symlink("a", to: "b"), .symlink("b", to: "a")]), Rule.linkLoop)
        try Validate.expectError(
            try tree("empty-link", [XarNode(name: "e", type: "symlink", linkTarget: "")]), Rule.linkEmpty)
        try Validate.expectWarning(try tree("dangling", [.symlink("gone", to: "nothing-here")]), Rule.linkDangling)
    }

    @Test func symlinkWrittenThroughByALaterEntry() throws {
        var link = XarNode.symlink("dir", to: "../..")
        link.children = [.file("evil.txt", text: "x")]
        try Validate.expectError(try tree("through", [link]), Rule.linkWriteThrough, entry: "Contents/dir/evil.txt")
        try Validate.expectError(
            try product(
                "cpio-through",
                [
                    .symlink("./Contents/d", to: "sub"), .directory("./Contents/sub"),
                    .file("./Contents/d/evil.txt", text: "x"),
                ]),
            Rule.linkWriteThrough, entry: "Contents/d/evil.txt")
    }

    // MARK: - Hard links

    @Test func hardLinkToAMissingID() throws {
        try Validate.expectError(
            try tree("hl-missing", [XarNode(name: "h", type: "hardlink", hardLink: "999")]),
            Rule.linkHardExternal, entry: "Contents/h")
    }

    @Test func hardLinkInsideThePackageWarns() throws {
        var original = XarNode.file("a.txt", text: "shared")
        original.id = "50"
        original.hardLink = "original"
        try Validate.expectWarning(
            try tree("hl-ok", [original, XarNode(name: "b.txt", type: "hardlink", hardLink: "50")]), Rule.linkHard)
        try Validate.expectWarning(
            try product(
                "cpio-hl-ok",
                [
                    CpioItem(path: "./Contents/a", mode: 0o100644, data: Array("x".utf8), ino: 90, nlink: 2),
                    CpioItem(path: "./Contents/b", mode: 0o100644, ino: 90, nlink: 2),
                ]),
            Rule.linkHard)
    }

    /// A hard link that carries data of its own: the data is still checksummed and sniffed.
    @Test func hardLinkCarryingData() throws {
        var original = XarNode.file("a.txt", text: "shared")
        original.id = "50"
        original.hardLink = "original"
        var link = XarNode(name: "b.txt", type: "hardlink", content: CodeSamples.elf, hardLink: "50")
        try Validate.expectError(try tree("hl-elf", [original, link]), Rule.execElf, entry: "Contents/b.txt")
        link.content = Array("shared".utf8)
        link.extractedChecksum = .wrong
        try Validate.expectError(
            try tree("hl-crc", [original, link]), Rule.xarExtractedChecksum, entry: "Contents/b.txt")
    }

    @Test func cpioHardLinkToEtcPasswd() throws {
        let items = [
            CpioItem(path: "/etc/passwd", mode: 0o100644, ino: 77, nlink: 2),
            CpioItem(path: "./Contents/pw", mode: 0o100644, ino: 77, nlink: 2),
        ]
        try Validate.expectError(try product("cpio-hl-out", items), Rule.linkHardExternal, entry: "Contents/pw")
    }
}
