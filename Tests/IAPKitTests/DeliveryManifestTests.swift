import IAPDelivery
import IAPSystem
import Testing

@testable import IAPKit

/// Unpack's records of what it wrote give the manifest a folder walk gives.
@Suite struct DeliveryManifestTests {
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
            ManifestWriter.bytes(productIdentifier: "p", version: "1", items: kept)
                == ManifestWriter.bytes(productIdentifier: "p", version: "1", items: walked))
    }
}
