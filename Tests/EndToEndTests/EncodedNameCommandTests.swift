import Foundation
import IAPRules
import Testing

/// Names written `<name enctype="base64">` through the commands: inspect and unpack show and write
/// them decoded, bsdtar's encoded names round-trip, and validate's text report escapes a decoded
/// control character. The rules themselves are judged in process (IAPKitTests' ValidateNameTests).
@Suite(.onTestThreads) struct EncodedNameCommandTests {
    let scratch = ScratchFolder()

    func tree(_ name: String, _ contents: [XarNode], edit: (inout HostileXar) -> Void = { _ in }) throws -> String {
        try scratch.hostileTree(name, contents, edit: edit)
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
}
