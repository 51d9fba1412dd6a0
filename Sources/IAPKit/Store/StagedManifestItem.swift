import IAPDelivery
import IAPSystem

extension ContentManifest.Item: DeliveryManifestLine {
    package var isFile: Bool { kind == "file" }
    package var isSymlink: Bool { kind == "symlink" }
    package var valueByteCount: Int { value.utf8.count }
    package func appendSHA256Hex(to out: inout [UInt8]) { out += value.utf8 }
    package var linkTarget: String { value }
}

/// One file or symlink an unpack wrote, as the delivery manifest lists it, held compactly: about
/// 80 bytes and one path string each, where a dictionary of `ContentManifest.Item` cost ~400 at
/// 100,000 files (key and path twice, a hex string, the table's slack).
struct StagedManifestItem: DeliveryManifestLine {
    var path: String
    /// Order of writing: a path written twice (a refreshed hard-link copy) keeps its last write.
    var sequence: UInt32
    var size: UInt64
    var sha256: SHA256Value?
    var target: String?

    var isFile: Bool { sha256 != nil }
    var isSymlink: Bool { target != nil }
    var mode: UInt32 { 0o644 }  // unpack creates every file so
    var valueByteCount: Int { sha256 != nil ? 64 : target?.utf8.count ?? 0 }
    func appendSHA256Hex(to out: inout [UInt8]) { sha256?.appendHex(to: &out) }
    var linkTarget: String { target ?? "" }

    /// `items` sorted by path bytes, each path once: its last write.
    static func latestPerPath(_ items: consuming [StagedManifestItem]) -> [StagedManifestItem] {
        items.sort { a, b in
            if a.path.utf8.elementsEqual(b.path.utf8) { return a.sequence < b.sequence }
            return a.path.utf8.lexicographicallyPrecedes(b.path.utf8)
        }
        var kept = 0
        for index in items.indices {
            let isLastOfPath =
                index + 1 == items.count || !items[index].path.utf8.elementsEqual(items[index + 1].path.utf8)
            if isLastOfPath {
                items.swapAt(kept, index)
                kept += 1
            }
        }
        items.removeLast(items.count - kept)
        return items
    }
}
