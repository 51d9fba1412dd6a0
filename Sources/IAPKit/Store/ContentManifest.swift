import IAPCrypto
import IAPSystem

/// What a content folder holds, entry by entry (path, kind, SHA-256 or link target), to tell
/// whether two versions are the same content.
package struct ContentManifest: Equatable, Sendable {
    package struct Item: Equatable, Sendable {
        package var path: String
        package var kind: String
        /// SHA-256 of a file, the target of a link, empty for a folder.
        package var value: String
        /// A file's size in bytes (0 for anything else).
        package var size: UInt64 = 0
        /// The permission bits.
        package var mode: UInt32 = 0
    }

    package var items: [Item]

    /// Walks `folder` (never following links) and hashes every file. The delivery manifest and
    /// hidden names at the top are the store's own, not content, and are left out.
    package static func of(_ folder: DirectoryHandle) throws -> ContentManifest {
        var items: [Item] = []
        try walk(folder, prefix: "", into: &items)
        return ContentManifest(items: items)
    }

    private static func walk(_ folder: DirectoryHandle, prefix: String, into items: inout [Item]) throws {
        for name in try folder.names() {
            if prefix.isEmpty && (name == DeliveryManifest.fileName || name.hasPrefix(".")) { continue }
            let path = prefix + name
            guard let status = folder.status(name) else { continue }
            switch status.kind {
            case .directory:
                items.append(Item(path: path, kind: "directory", value: ""))
                try walk(try folder.openDirectory(name), prefix: path + "/", into: &items)
            case .symlink:
                items.append(Item(path: path, kind: "symlink", value: folder.readSymlink(name) ?? ""))
            case .regular:
                let file = try folder.openFile(name)
                let hasher = DigestHasher(.sha256)
                let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 64)
                defer { buffer.deallocate() }
                while true {
                    let n = try file.readSequential(into: buffer)
                    if n == 0 { break }
                    hasher.update(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
                }
                items.append(
                    Item(
                        path: path, kind: "file", value: Hex.encode(hasher.finish()), size: status.size,
                        mode: status.permissions))
            default:
                items.append(Item(path: path, kind: "other", value: ""))
            }
        }
    }
}
