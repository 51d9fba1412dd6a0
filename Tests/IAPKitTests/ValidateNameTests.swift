import Foundation
import IAPKitTestSupport
import IAPRules
import IAPTestSupport
import Testing

/// Names as every other reader sees them: `<name enctype="base64">` decoded before any rule runs,
/// other encodings refused, repeated names agreeing, findings naming decoded entries; judged in
/// process by the validator the CLI calls (EncodedNameCommandTests has inspect, unpack and bsdtar).
@Suite(.onTestThreads) struct ValidateNameTests {
    let scratch = ScratchFolder()

    func tree(_ name: String, _ contents: [XarNode], edit: (inout HostileXar) -> Void = { _ in }) throws -> String {
        try scratch.hostileTree(name, contents, edit: edit)
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
