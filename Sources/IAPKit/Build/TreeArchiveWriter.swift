import IAPSystem
import XarKit

/// Writes a content folder as a bare tree: ContentInfo.plist and Contents/ as xar entries.
enum TreeArchiveWriter {
    /// Files up to this size are read whole and compressed in one call.
    static let smallFileBytes: UInt64 = 1 << 20

    static func write(
        _ scan: ContentFolderScan, contentInfo: [UInt8], times: EntryTimes,
        to xar: XarWriter, progress: Progress
    ) throws {
        // Readers refuse a TOC of more files (or more bytes, which the writer checks as it goes):
        // say so before compressing anything.
        let tocFiles = scan.entries.count - 1  // every entry but the folder itself becomes a <file>
        guard tocFiles <= XarLimits.tocFiles else {
            throw IAPKitError.failed(
                "\(tocFiles) entries are more than a bare tree package holds (readers refuse a TOC of more than "
                    + "\(XarLimits.tocFiles) files or \(XarLimits.tocBytes >> 20) MiB); build the product layout (the "
                    + "default), whose Payload holds any number of entries")
        }
        for source in scan.entries where !source.entry.components.isEmpty {
            let entry = source.entry
            let mtime = Timestamps.iso8601(times.entry(source))
            let perms = UInt32(entry.permissions & 0o777)
            switch entry.kind {
            case .directory:
                try xar.addDirectory(path: entry.path, mode: perms, mtime: mtime)
            case .symlink:
                try xar.addSymlink(path: entry.path, target: entry.linkTarget ?? "", mode: 0o755, mtime: mtime)
            case .file where entry.path == "ContentInfo.plist":
                try xar.addFile(path: entry.path, mode: perms, mtime: mtime, encoding: .zlib, bytes: contentInfo)
            case .file where entry.size <= Self.smallFileBytes:
                // Small files whole: one libdeflate call instead of a zlib stream each.
                var bytes: [UInt8] = []
                bytes.reserveCapacity(Int(entry.size))
                try SourceFileReader.stream(source.sourcePath, expectedSize: entry.size) {
                    bytes.append(contentsOf: $0)
                }
                try xar.addFile(path: entry.path, mode: perms, mtime: mtime, encoding: .zlib, bytes: bytes)
                progress.advance(entry.size)
            case .file:
                try xar.addFile(path: entry.path, mode: perms, mtime: mtime, encoding: .zlib) { sink in
                    try SourceFileReader.stream(source.sourcePath, expectedSize: entry.size) { bytes in
                        try sink(bytes)
                        progress.advance(UInt64(bytes.count))
                    }
                }
            default:
                throw IAPKitError.failed("\(entry.rawPath) is a \(entry.kind.name) and cannot be packaged")
            }
        }
    }
}
