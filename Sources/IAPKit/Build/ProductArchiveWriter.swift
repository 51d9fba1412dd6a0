import BomKit
import IAPSystem
import PayloadKit
import XarKit

/// Writes a content folder as the product archive `productbuild --content` makes:
/// `Distribution`, `NAME.pkg/Bom`, `NAME.pkg/Payload` (gzip'd cpio odc), `NAME.pkg/PackageInfo`.
enum ProductArchiveWriter {
    /// Room kept at the head of the file for the xar header and the (padded) TOC.
    static let reservedHeadBytes = 4096

    /// Adds every entry of the product shape to `xar`, streaming each file once.
    static func write(
        _ scan: ContentFolderScan, contentInfo: [UInt8], times: EntryTimes, level: Int32,
        compression: PayloadCompressionChoice = .gzip, to xar: XarWriter, progress: Progress
    ) throws {
        let name = scan.name
        let component = name + ".pkg"
        let sizes = payloadSizes(scan, contentInfoSize: UInt64(contentInfo.count))
        let installKBytes = ProductArchiveDocuments.installKBytes(sizes: Array(sizes.dropFirst()))
        let time = Timestamps.iso8601(times.archive)

        try xar.addDirectory(path: component, mode: 0o755, mtime: time)
        var bom: [BomEntry] = []
        bom.reserveCapacity(scan.contents.count)
        try xar.addFile(path: component + "/Payload", mode: 0o644, mtime: time, encoding: .stored) { sink in
            try withoutActuallyEscaping(sink) { sink in
                let payload =
                    switch compression {
                    case .gzip: try PayloadWriter(level: level, sink: sink)
                    case .pbzx: try PayloadWriter(pbzxChunkSize: PayloadWriter.pbzxChunkSize, sink: sink)
                    }
                for (index, source) in scan.entries.enumerated() {
                    let entry = source.entry
                    let path = entry.components.isEmpty ? "." : "./" + entry.path
                    let mtime = times.entry(source)
                    let perms = UInt16(entry.permissions & 0o777)
                    var record = BomEntry(
                        path: path, kind: .file, mode: perms, modificationTime: UInt32(clamping: mtime),
                        size: sizes[index])
                    switch entry.kind {
                    case .directory:
                        try payload.addDirectory(path: path, mode: perms, modificationTime: mtime)
                        record.kind = .directory
                        record.mode = 0o040000 | perms
                    case .symlink:
                        let target = entry.linkTarget ?? ""
                        try payload.addSymlink(path: path, target: target, mode: 0o755, modificationTime: mtime)
                        record.kind = .symlink
                        record.mode = 0o120755
                        record.linkTarget = target
                        record.checksum = BomChecksum.checksum(of: Array(target.utf8))
                    case .file:
                        var crc = BomChecksum()
                        record.mode = 0o100000 | perms
                        if entry.path == "ContentInfo.plist" {
                            try payload.addFile(
                                path: path, mode: perms, modificationTime: mtime, size: UInt64(contentInfo.count)
                            ) { write in
                                try contentInfo.withUnsafeBytes { bytes in
                                    crc.update(bytes)
                                    try write(bytes)
                                }
                            }
                        } else {
                            try payload.addFile(path: path, mode: perms, modificationTime: mtime, size: entry.size) {
                                write in
                                try SourceFileReader.stream(source.sourcePath, expectedSize: entry.size) { bytes in
                                    crc.update(bytes)
                                    try write(bytes)
                                    progress.advance(UInt64(bytes.count))
                                }
                            }
                        }
                        record.checksum = crc.finalize()
                    default:
                        throw IAPKitError.failed("\(entry.rawPath) is a \(entry.kind.name) and cannot be packaged")
                    }
                    bom.append(record)
                }
                try payload.finish()
            }
        }
        let bomBytes = try BomWriter.write(bom)
        bom = []  // the records' paths go before the Bom is compressed
        try xar.addFile(path: component + "/Bom", mode: 0o644, mtime: time, encoding: .zlib, bytes: bomBytes)
        try xar.addFile(
            path: component + "/PackageInfo", mode: 0o644, mtime: time, encoding: .zlib,
            bytes: ProductArchiveDocuments.packageInfo(
                componentName: name, numberOfFiles: scan.entries.count,
                installKBytes: installKBytes))
        try xar.addFile(
            path: "Distribution", mode: 0o644, mtime: time, encoding: .zlib,
            bytes: ProductArchiveDocuments.distribution(componentName: name, installKBytes: installKBytes))
        // productbuild's order in the table of contents, whatever order the data went into the heap.
        xar.order(["Distribution", component, component + "/Bom", component + "/Payload", component + "/PackageInfo"])
    }

    /// The size pkgbuild records per payload entry: file bytes, link target length, 32 per folder child plus 64.
    /// Children are counted by position, not by path strings: the scan lists entries depth first,
    /// each folder right before its subtree, so an entry's parent is the last folder one level up.
    static func payloadSizes(_ scan: ContentFolderScan, contentInfoSize: UInt64) -> [UInt64] {
        let contents = scan.contents
        var children = [UInt64](repeating: 0, count: contents.count)
        var openFolders: [Int] = []  // index of the folder open at each depth
        for (index, entry) in contents.enumerated() {
            let depth = entry.components.count
            if depth > 0, depth <= openFolders.count { children[openFolders[depth - 1]] += 1 }
            if entry.kind == .directory {
                openFolders.removeLast(max(0, openFolders.count - depth))
                openFolders.append(index)
            }
        }
        return contents.enumerated().map { index, entry in
            switch entry.kind {
            case .directory: return 32 * (children[index] + 2)
            case .symlink: return UInt64(entry.linkTarget?.utf8.count ?? 0)
            default:
                return entry.components.count == 1 && entry.components[0] == "ContentInfo.plist"
                    ? contentInfoSize : entry.size
            }
        }
    }
}
