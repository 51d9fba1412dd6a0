import Foundation
import IAPRules
import Testing

/// Names as every other reader sees them: `<name enctype="base64">` decoded before any rule runs,
/// other encodings refused, repeated names agreeing, findings naming decoded entries.
@Suite(.onTestThreads) struct ValidateNameTests {
    let scratch = ScratchFolder()

    func tree(_ name: String, _ contents: [XarNode], edit: (inout HostileXar) -> Void = { _ in }) throws -> String {
        let path = scratch.at(name + ".pkg")
        try HostileTree.write(HostileTree.nodes(contents: contents), to: path, edit: edit)
        return path
    }

    @Test func encodedNamesAreReadDecoded() throws {
        let long = String(repeating: "長", count: 25) + ".txt"  // 79 bytes: its base64 is wrapped
        let path = try tree(
            "encoded",
            [
                .encodedDirectory("日本", [.encodedFile("データ.txt", text: "data\n")]),
                .encodedFile("🎉.txt", text: "party\n"), .encodedFile("файл.txt", text: "file\n"),
                .encodedFile(long, text: "long\n"), .file("plain.txt", text: "plain\n"),
            ])
        // The 79-byte name is wrapped: bsdtar would extract it cut short, and the gate says so.
        let run = try Validate.expectWarning(path, Rule.xarNameWrapped)
        #expect(run.findings.map(\.rule) == ["xar-name-wrapped"], "\(run.dump)")
        let inspect = try Harness.run(["iapkg", "inspect", path])
        #expect(inspect.status == 0)
        for name in ["Contents/日本/データ.txt", "Contents/🎉.txt", "Contents/файл.txt", "Contents/" + long] {
            #expect(inspect.stdout.contains(name), "\(inspect.stdout)")
        }
        #expect(!inspect.stdout.contains("5pel5pys"))
        let root = scratch.at("root-encoded")
        let unpack = try Harness.run(["iapkg", "unpack", path, "--into", root])
        #expect(unpack.status == 0, "\(unpack.stderr)")
        let version = root + "/com.example.test/1.0/Contents/"
        #expect(try String(contentsOfFile: version + "日本/データ.txt", encoding: .utf8) == "data\n")
        #expect(try String(contentsOfFile: version + long, encoding: .utf8) == "long\n")
        #expect(FileManager.default.fileExists(atPath: version + "🎉.txt"))
    }

    @Test func namesBsdtarWouldCutOntoAnotherEntryAreRefused() throws {
        let stem = String(repeating: "あ", count: 18)  // 54 bytes: bsdtar keeps exactly these
        let path = try tree(
            "cut-collide", [.encodedFile(stem, text: "first"), .encodedFile(stem + "-evil.txt", text: "second")])
        let run = try Validate.expectError(path, Rule.entryReaderCollision)
        #expect(
            run.findings.contains { $0.rule == "entry-reader-collision" && $0.entry == "Contents/\(stem)-evil.txt" },
            "\(run.dump)")
    }

    /// A package bsdtar itself wrote from non-ASCII names: read, judged and unpacked with the same
    /// names and bytes as the folder it came from.
    @Test func bsdtarRoundTripWithNonASCIINames() throws {
        let files = [
            "Contents/日本/データ.txt": "data\n", "Contents/🎉.txt": "party\n", "Contents/файл.txt": "file\n",
            "Contents/café.txt": "latin-1 stays plain\n",
            "Contents/" + String(repeating: "長", count: 25) + ".txt": "long\n",
        ]
        let folder = try scratch.contentFolder("bsdtar-src", files: files)
        let package = scratch.at("bsdtar-names.pkg")
        let made = try Harness.run([
            "bsdtar", "--format", "xar", "-cf", package, "-C", folder, "ContentInfo.plist", "Contents",
        ])
        #expect(made.status == 0, "\(made.stderr)")
        let run = try Validate.expectWarning(package, Rule.xarNameWrapped)
        #expect(Set(run.findings.map(\.rule)) == ["xar-name-wrapped"], "\(run.dump)")
        let root = scratch.at("bsdtar-root")
        let unpack = try Harness.run(["iapkg", "unpack", package, "--into", root])
        #expect(unpack.status == 0, "\(unpack.stderr)")
        #expect(try scratch.snapshot("bsdtar-root/com.example.test/1.0") == scratch.snapshot("bsdtar-src"))
    }

    @Test func encodedTraversalIsRefused() throws {
        let run = try Validate.expectError(
            try tree("enc-dotdot", [.encodedFile("../../escape.txt", text: "x")]), Rule.entryNameInvalid)
        let finding = run.findings.first { $0.rule == "entry-name-invalid" }
        #expect(finding?.entry == "Contents/../../escape.txt", "\(run.dump)")
        #expect(finding?.storedEntry == "Contents/Li4vLi4vZXNjYXBlLnR4dA==", "\(run.dump)")
        try Validate.expectError(
            try tree("enc-dot", [.encodedDirectory("..", [.file("x", text: "x")])]), Rule.entryNameInvalid)
    }

    @Test func containerFindingsOnEncodedEntriesCarryTheStoredName() throws {
        var node = XarNode.encodedFile("日本.txt", text: "x")
        node.archivedChecksum = .wrong
        let run = try Validate.expectError(try tree("enc-checksum", [node]), Rule.xarArchivedChecksum)
        let finding = run.findings.first { $0.rule == "xar-archived-checksum" }
        #expect(
            finding?.entry == "Contents/日本.txt" && finding?.storedEntry == "Contents/5pel5pysLnR4dA==", "\(run.dump)")
    }

    @Test func encodedNULSlashAndControlsAreRefused() throws {
        try Validate.expectError(
            try tree("enc-nul", [.encodedFile(Array("a\0b.txt".utf8), text: "x")]), Rule.entryNameInvalid)
        try Validate.expectError(try tree("enc-slash", [.encodedFile("a/b.txt", text: "x")]), Rule.entryNameInvalid)
        try Validate.expectError(try tree("enc-bs", [.encodedFile("a\\b.txt", text: "x")]), Rule.entryNameInvalid)
        let newline = try tree("enc-nl", [.encodedFile("a\nerror[forged] b", text: "x")])
        try Validate.expectError(newline, Rule.entryNameInvalid)
        // The text report escapes the control character: no forged line.
        let text = try Harness.run(["iapkg", "validate", newline])
        #expect(text.stdout.contains("a\\u{000A}error[forged] b"), "\(text.stdout)")
        #expect(!text.stdout.split(separator: "\n").contains { $0.hasPrefix("error[forged]") })
    }

    @Test func invalidUTF8IsRefused() throws {
        try Validate.expectError(
            try tree("enc-utf8", [.encodedFile([0x61, 0xFF, 0xFE, 0x2E, 0x74], text: "x")]), Rule.entryNameInvalid)
    }

    @Test func duplicatesAcrossEncodedAndPlainNames() throws {
        try Validate.expectError(
            try tree("enc-dup", [.file("a.txt", text: "1"), .encodedFile("a.txt", text: "2")]), Rule.entryDuplicate)
        let nfc = "caf\u{E9}.txt"
        let nfd = "cafe\u{301}.txt"
        try Validate.expectError(
            try tree("enc-nfd", [.file(nfc, text: "1"), .encodedFile(nfd, text: "2")]), Rule.entryUnicodeCollision)
    }

    @Test func otherEncodingsAndBadBase64AreRefused() throws {
        var rot = XarNode.file("n.txt", text: "x")
        rot.nameXML = "<name enctype=\"rot13\">a.gkg</name>"
        try Validate.expectError(try tree("enc-rot13", [rot]), Rule.xarNameEncoding)
        var bad = XarNode.file("n.txt", text: "x")
        bad.nameXML = "<name enctype=\"base64\">not*base64</name>"
        try Validate.expectError(try tree("enc-bad", [bad]), Rule.xarNameEncoding)
    }

    @Test func repeatedNamesMustAgree() throws {
        var same = XarNode.file("same.txt", text: "x")
        same.nameXML = "<name>same.txt</name><name>same.txt</name>"
        try Validate.expectClean(try tree("names-same", [same]))
        var sameEncoded = XarNode.file("日本.txt", text: "x")
        sameEncoded.nameXML = "<name>日本.txt</name>" + XarSpelling.base64Name("日本.txt")
        try Validate.expectClean(try tree("names-same-enc", [sameEncoded]))
        var differ = XarNode.file("a.txt", text: "x")
        differ.nameXML = "<name>a.txt</name><name>b.exe</name>"
        try Validate.expectError(try tree("names-differ", [differ]), Rule.xarFileName)
    }

    @Test func findingsNameProductEntriesFromTheContentRoot() throws {
        let path = try scratch.hostileProduct("named", [.file("./Contents/../x", text: "x")])
        let run = try Validate.expectError(path, Rule.entryNameInvalid)
        #expect(
            run.findings.contains {
                $0.rule == "entry-name-invalid" && $0.entry == "Contents/../x" && $0.storedEntry == nil
            },
            "\(run.dump)")
    }
}
