import IAPCore
import Testing

@testable import IAPKit

/// manifest.json is written straight into bytes; its text must be exactly the documented one.
@Suite struct DeliveryManifestTests {
    @Test func manifestListsFilesThenSymlinksSortedByPathBytesWithEscapes() {
        let digest = String(repeating: "ab", count: 32)
        let items: [ContentManifest.Item] = [
            .init(path: "Contents/z\"q\\.txt", kind: "file", value: digest, size: 3, mode: 0o644),
            .init(path: "Contents", kind: "directory", value: ""),
            .init(path: "Contents/link", kind: "symlink", value: "a\tb/é\u{7F}", mode: 0o755),
            .init(path: "Contents/a é.bin", kind: "file", value: digest, size: 10, mode: 0o600),
        ]
        let text = String(
            decoding: DeliveryManifest.make(productIdentifier: "com.example.p", version: "1.2", items: items),
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
            decoding: DeliveryManifest.make(productIdentifier: "p", version: "1", items: [ContentManifest.Item]()),
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

    /// Unpack's compact records (a digest in 32 bytes, a path written twice keeping its last
    /// write) give the same text as the items a folder walk makes.
    @Test func stagedItemsKeepTheLastWriteOfAPathAndWriteTheSameText() {
        let first = [UInt8](repeating: 0x11, count: 32)
        let last = (0..<32).map { UInt8($0 * 7) }
        let staged = [
            StagedManifestItem(path: "Contents/b", sequence: 0, size: 1, sha256: SHA256Value(first)),
            StagedManifestItem(path: "Contents/a", sequence: 1, size: 2, sha256: SHA256Value(first)),
            StagedManifestItem(path: "Contents/l", sequence: 2, size: 0, target: "b"),
            StagedManifestItem(path: "Contents/b", sequence: 3, size: 5, sha256: SHA256Value(last)),
        ]
        let kept = StagedManifestItem.latestPerPath(staged)
        #expect(kept.map(\.path) == ["Contents/a", "Contents/b", "Contents/l"])
        #expect(kept[1].size == 5 && kept[1].sha256 == SHA256Value(last))
        let walked: [ContentManifest.Item] = [
            .init(path: "Contents/l", kind: "symlink", value: "b", mode: 0o755),
            .init(path: "Contents/b", kind: "file", value: Hex.encode(last), size: 5, mode: 0o644),
            .init(path: "Contents/a", kind: "file", value: Hex.encode(first), size: 2, mode: 0o644),
        ]
        #expect(
            DeliveryManifest.make(productIdentifier: "p", version: "1", items: kept)
                == DeliveryManifest.make(productIdentifier: "p", version: "1", items: walked))
    }
}
