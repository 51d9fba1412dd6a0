import BomKit
import Foundation
import IAPCompression
import IAPKit
import IAPTestSupport

/// One entry of a hand-made cpio (odc) Payload.
package struct CpioItem {
    /// The name as stored ("./Contents/a.txt").
    package var path: String
    /// Full st_mode, type bits included (0o100644, 0o040755, 0o120755, 0o010644…).
    package var mode: UInt32
    /// A file's bytes, or a symlink's target.
    package var data: [UInt8] = []
    package var ino: UInt64 = 0
    package var nlink: UInt64 = 1
    /// Replaces the stored name bytes (for names that are not valid UTF-8).
    package var nameBytes: [UInt8]?

    /// An entry with every field given or left at its default.
    package init(
        path: String, mode: UInt32, data: [UInt8] = [], ino: UInt64 = 0, nlink: UInt64 = 1, nameBytes: [UInt8]? = nil
    ) {
        self.path = path
        self.mode = mode
        self.data = data
        self.ino = ino
        self.nlink = nlink
        self.nameBytes = nameBytes
    }

    package static func directory(_ path: String, mode: UInt32 = 0o755) -> CpioItem {
        CpioItem(path: path, mode: 0o040000 | mode)
    }
    package static func file(_ path: String, _ data: [UInt8], mode: UInt32 = 0o644) -> CpioItem {
        CpioItem(path: path, mode: 0o100000 | mode, data: data)
    }
    package static func file(_ path: String, text: String, mode: UInt32 = 0o644) -> CpioItem {
        .file(path, Array(text.utf8), mode: mode)
    }
    package static func symlink(_ path: String, to target: String) -> CpioItem {
        CpioItem(path: path, mode: 0o120755, data: Array(target.utf8))
    }
}

/// Raw odc cpio bytes of `items` through the fixtures' odc writer: every entry and the trailer dated
/// 2024-01-01, inode numbers 1, 2, 3… unless an item gives its own.
package enum OdcCpio {
    package static func bytes(_ items: [CpioItem]) -> [UInt8] {
        var odc = OdcBuilder()
        for (index, item) in items.enumerated() {
            odc.add(
                nameBytes: item.nameBytes ?? Array(item.path.utf8), mode: item.mode, data: item.data,
                ino: item.ino == 0 ? UInt64(index + 1) : item.ino, nlink: item.nlink, mtime: 1_704_067_200)
        }
        odc.addTrailer(mtime: 1_704_067_200)
        return odc.bytes
    }
}

/// A product archive (Distribution + NAME.pkg/{Bom, Payload, PackageInfo}) made from cpio items,
/// with a Bom that matches them unless a test edits it.
package struct HostileProduct {
    package var name = "content"
    package var items: [CpioItem]
    /// Edits the Bom records made from `items` before the Bom is written.
    package var editBom: ([BomEntry]) -> [BomEntry] = { $0 }
    /// Replaces the gzip'd Payload bytes.
    package var payloadOverride: [UInt8]?
    /// Leaves the Distribution out.
    package var withoutDistribution = false
    /// More entries inside NAME.pkg (e.g. Scripts).
    package var extraComponentNodes: [XarNode] = []
    /// Edits the xar before it is written.
    package var editXar: (inout HostileXar) -> Void = { _ in }

    package init(items: [CpioItem]) { self.items = items }

    /// A valid product archive holding `plist` and `files` (path below Contents/ → bytes).
    package init(
        plist: String = Fixtures.plist(product: "com.example.test", version: "1.0"),
        files: [(String, [UInt8])] = [("readme.txt", Array("hello\n".utf8))]
    ) {
        var items: [CpioItem] = [.directory("."), .file("./ContentInfo.plist", text: plist), .directory("./Contents")]
        for (path, bytes) in files { items.append(.file("./Contents/" + path, bytes)) }
        self.items = items
    }

    /// The Bom records pkgbuild would write for `items`, leaving out what no Bom can hold
    /// (absolute or `..` paths, duplicates, children of non-folders, overlong paths): the
    /// validator then reports those as Bom mismatches too.
    package static func bomEntries(_ items: [CpioItem]) -> [BomEntry] {
        var directories: Set<String> = []
        var seen: Set<String> = []
        let writable = items.filter { item in
            let parts = item.path.split(separator: "/", omittingEmptySubsequences: false)
            guard item.path == "." || item.path.hasPrefix("./"), item.path.utf8.count <= 1024,
                !parts.dropFirst().contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }),
                seen.insert(item.path).inserted
            else { return false }
            if item.path != "." {
                guard directories.contains(parts.dropLast().joined(separator: "/")) else { return false }
            }
            if item.mode & 0o170000 == 0o040000 { directories.insert(item.path) }
            return true
        }
        return writable.compactMap { item in
            let mode = UInt16(truncatingIfNeeded: item.mode)
            switch item.mode & 0o170000 {
            case 0o040000: return BomEntry(path: item.path, kind: .directory, mode: mode, size: 0)
            case 0o120000:
                return BomEntry(
                    path: item.path, kind: .symlink, mode: mode, size: UInt64(item.data.count),
                    checksum: BomChecksum.checksum(of: item.data),
                    linkTarget: String(decoding: item.data, as: UTF8.self))
            case 0o100000:
                return BomEntry(
                    path: item.path, kind: .file, mode: mode, size: UInt64(item.data.count),
                    checksum: BomChecksum.checksum(of: item.data))
            case 0o020000, 0o060000: return BomEntry(path: item.path, kind: .device, mode: mode, device: 0)
            default: return nil
            }
        }
    }

    /// The xar, before `editXar`.
    package func xar() throws -> HostileXar {
        let payload = try payloadOverride ?? Deflater.compress(OdcCpio.bytes(items), format: .gzip)
        let bom = try BomWriter.write(editBom(Self.bomEntries(items)))
        let sizes = items.map { UInt64($0.data.count) }
        let kbytes = ProductArchiveDocuments.installKBytes(sizes: sizes)
        var component = XarNode.directory(
            name + ".pkg",
            [
                .file("Bom", bom),
                XarNode(name: "Payload", content: payload, encoding: "application/octet-stream"),
                .file(
                    "PackageInfo",
                    ProductArchiveDocuments.packageInfo(
                        componentName: name, numberOfFiles: items.count, installKBytes: kbytes)),
            ])
        component.children += extraComponentNodes
        var nodes = [component]
        if !withoutDistribution {
            nodes.insert(
                .file("Distribution", ProductArchiveDocuments.distribution(componentName: name, installKBytes: kbytes)),
                at: 0)
        }
        var xar = HostileXar(nodes)
        editXar(&xar)
        return xar
    }

    package func write(to path: String) throws { try xar().write(to: path) }
}
