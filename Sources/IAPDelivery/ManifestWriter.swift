/// What ``ManifestWriter`` needs of one item: its path, kind, size, mode and value.
package protocol DeliveryManifestLine {
    /// The path relative to the version folder.
    var path: String { get }
    /// A regular file (listed with its SHA-256); anything neither file nor symlink is left out.
    var isFile: Bool { get }
    /// A symlink (listed with its target).
    var isSymlink: Bool { get }
    /// A file's size in bytes.
    var size: UInt64 { get }
    /// A file's permission bits.
    var mode: UInt32 { get }
    /// Byte length of `appendSHA256Hex` or of the link target, for sizing the output.
    var valueByteCount: Int { get }
    /// Appends a file's SHA-256 as lower-case hex.
    func appendSHA256Hex(to out: inout [UInt8])
    /// A symlink's target.
    var linkTarget: String { get }
}

/// Writes `manifest.json` as every store publishes it: sorted keys, one file per line, paths sorted
/// bytewise, so the same version always gives the same bytes and the same SHA-256.
package enum ManifestWriter {
    /// The manifest listing `items` (any order, each path once; folders are left out), written
    /// straight into bytes: one sorted list of positions and the output, never a line string per
    /// item (at 100,000 files the lines, their join and the sorted copies of the items cost ~70 MB).
    package static func bytes<Line: DeliveryManifestLine>(productIdentifier: String, version: String, items: [Line])
        -> [UInt8]
    {
        var order = Array(items.indices)
        order.sort { items[$0].path.utf8.lexicographicallyPrecedes(items[$1].path.utf8) }
        var files = 0
        var total = UInt64(0)
        var estimate = 256
        for item in items where item.isFile || item.isSymlink {
            if item.isFile {
                files += 1
                total &+= item.size
            }
            estimate += 120 + item.path.utf8.count + item.valueByteCount
        }
        var out: [UInt8] = []
        out.reserveCapacity(estimate)
        out += "{\n  \"fileCount\": \(files),\n  \"files\": [".utf8
        var first = true
        for index in order where items[index].isFile {
            let item = items[index]
            out += (first ? "\n    " : ",\n    ").utf8
            first = false
            out += "{\"mode\": \"0\(String(item.mode, radix: 8))\", \"path\": ".utf8
            JSONText.append(item.path, to: &out)
            out += ", \"sha256\": \"".utf8
            item.appendSHA256Hex(to: &out)
            out += "\", \"size\": \(item.size)}".utf8
        }
        out += (first ? "],\n" : "\n  ],\n").utf8
        out += "  \"productIdentifier\": ".utf8
        JSONText.append(productIdentifier, to: &out)
        out += ",\n  \"schemaVersion\": \(DeliveryDocument.schemaVersion),\n  \"symlinks\": [".utf8
        first = true
        for index in order where items[index].isSymlink {
            out += (first ? "\n    {\"path\": " : ",\n    {\"path\": ").utf8
            first = false
            JSONText.append(items[index].path, to: &out)
            out += ", \"target\": ".utf8
            JSONText.append(items[index].linkTarget, to: &out)
            out += "}".utf8
        }
        out += (first ? "],\n" : "\n  ],\n").utf8
        out += "  \"totalBytes\": \(total),\n  \"version\": ".utf8
        JSONText.append(version, to: &out)
        out += "\n}\n".utf8
        return out
    }
}
