import IAPDelivery
import Testing

/// manifest.json is written straight into bytes; its text must be exactly the documented one.
@Suite struct ManifestWriterTests {
    /// One item as a store hands it to the writer.
    struct Line: DeliveryManifestLine {
        var path: String
        var kind: String
        var value: String
        var size: UInt64 = 0
        var mode: UInt32 = 0o644
        var isFile: Bool { kind == "file" }
        var isSymlink: Bool { kind == "symlink" }
        var valueByteCount: Int { value.utf8.count }
        func appendSHA256Hex(to out: inout [UInt8]) { out += value.utf8 }
        var linkTarget: String { value }
    }

    @Test func manifestListsFilesThenSymlinksSortedByPathBytesWithEscapes() {
        let digest = String(repeating: "ab", count: 32)
        let items: [Line] = [
            .init(path: "Contents/z\"q\\.txt", kind: "file", value: digest, size: 3, mode: 0o644),
            .init(path: "Contents", kind: "directory", value: "", size: 0, mode: 0o755),
            .init(path: "Contents/link", kind: "symlink", value: "a\tb/é\u{7F}", mode: 0o755),
            .init(path: "Contents/a é.bin", kind: "file", value: digest, size: 10, mode: 0o600),
        ]
        let text = String(
            decoding: ManifestWriter.bytes(productIdentifier: "com.example.p", version: "1.2", items: items),
            as: UTF8.self)
        let expected = """
            {
              "fileCount": 2,
              "files": [
                {"mode": "0600", "path": "Contents/a é.bin", "sha256": "\(digest)", "size": 10},
                {"mode": "0644", "path": "Contents/z\\"q\\\\.txt", "sha256": "\(digest)", "size": 3}
              ],
              "productIdentifier": "com.example.p",
              "schemaVersion": 1,
              "symlinks": [
                {"path": "Contents/link", "target": "a\\tb/é\\u007f"}
              ],
              "totalBytes": 13,
              "version": "1.2"
            }

            """
        #expect(text == expected)
    }

    @Test func emptyManifestHasEmptyLists() {
        let text = String(
            decoding: ManifestWriter.bytes(productIdentifier: "p", version: "1", items: [Line]()),
            as: UTF8.self)
        #expect(
            text
                == "{\n  \"fileCount\": 0,\n  \"files\": [],\n  \"productIdentifier\": \"p\",\n  \"schemaVersion\": 1,\n"
                + "  \"symlinks\": [],\n  \"totalBytes\": 0,\n  \"version\": \"1\"\n}\n")
    }

    @Test func appendingEqualsQuotingForEveryKindOfCharacter() {
        for text in [
            "plain", "", "quote\"", "back\\slash", "tab\tnew\nline\r", "\u{1}\u{1F}\u{7F}", "日本 語", "é\u{301}",
        ] {
            var out: [UInt8] = []
            JSONText.append(text, to: &out)
            #expect(out == Array(JSONText.quoted(text).utf8))
        }
    }

    @Test func thePointerIsOneSortedLine() {
        let pointer = CurrentPointer(productIdentifier: "com.example.p", version: "1.2", manifestSHA256: "ab")
        #expect(
            String(decoding: pointer.encoded, as: UTF8.self)
                == #"{"manifestSHA256":"ab","productIdentifier":"com.example.p","schemaVersion":1,"version":"1.2"}"#
                + "\n")
    }
}
