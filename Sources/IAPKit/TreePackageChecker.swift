import IAPCore
import XarKit

/// Checks a bare-tree package: every xar entry becomes a content entry, every file's data is
/// decoded (bounded, checksummed) and sniffed for executable code.
enum TreePackageChecker {
    static func check(_ archive: XarArchive) -> PackageContent {
        var content = PackageContent()
        content.entries.reserveCapacity(archive.toc.files.count)
        // Ids matter only for hard links: index them only when there are some.
        let hasHardLinks = archive.toc.files.contains { $0.hardLink != nil }
        let pathByID = hasHardLinks ? Dictionary(archive.toc.files.compactMap { file in file.id.map { ($0, file.path) } },
                                                 uniquingKeysWith: { first, _ in first }) : [:]
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 64)
        defer { buffer.deallocate() }
        let declaredTotal = archive.toc.files.reduce(UInt64(0)) { $0 &+ ($1.data?.size ?? 0) }
        let tooBig = DecompressionBombCheck.totalFinding(declared: declaredTotal, entry: nil)
        for file in archive.toc.files {
            var entry = ContentEntry(rawPath: file.path, kind: ContentEntry.Kind(file.type),
                                     permissions: (file.mode ?? 0o644) & 0o7777, size: file.data?.size ?? 0,
                                     linkTarget: file.linkTarget, hasExtendedAttributes: file.hasExtendedAttributes,
                                     hasFlags: file.hasFlags, offset: file.data.map { archive.heapOffset &+ $0.offset })
            switch file.hardLink {
            case .original?: entry.kind = .file
            case .target(let id)?:
                entry.kind = .hardlink
                entry.hardlinkTarget = pathByID[id] ?? "#\(id)"
            case nil where file.type == .hardlink:
                entry.hardlinkTarget = nil
            case nil: break
            }
            if file.type != .symlink, file.linkTarget != nil {
                content.findings.append(.error("xar-file-type", file.path, offset: entry.offset,
                    "the entry is typed '\(file.type.xarName)' but carries a <link> target; some readers (libarchive) extract it as a symlink — rebuild the package"))
            }
            if let problem = EntryNameRules.problem(with: file.name) {
                content.findings.append(.error("entry-name-invalid", file.path, offset: entry.offset,
                    "the xar name '\(file.name)' \(problem); one <name> is one path component — rename it"))
            }
            if entry.kind == .file, file.data == nil, entry.components == ["ContentInfo.plist"] {
                // xar writers store an empty file without <data>; it is still the plist to judge.
                content.contentInfo = []
            }
            // Every entry's data is decoded and checked, not only regular files': a hard link or a
            // folder may carry bytes too, and some extractor may write them.
            if let data = file.data {
                if let bomb = DecompressionBombCheck.finding(entry: file.path, declared: data.size, stored: data.length, offset: entry.offset) {
                    content.findings.append(bomb)
                } else if tooBig == nil {
                    decode(file, archive: archive, into: &entry, content: &content, buffer: buffer)
                }
            }
            content.entries.append(entry)
        }
        if let tooBig { content.findings.append(tooBig) }
        return content
    }

    private static func decode(_ file: XarFile, archive: XarArchive, into entry: inout ContentEntry,
                               content: inout PackageContent, buffer: UnsafeMutableRawBufferPointer) {
        let isPlist = entry.components == ["ContentInfo.plist"]
        var sniffer = ExecutableSniffer(fileSize: entry.size)
        var plist: [UInt8] = []
        do throws(XarError) {
            let stream = try archive.dataStream(for: file)
            while true {
                let n = try stream.read(into: buffer)
                if n == 0 { break }
                let piece = UnsafeRawBufferPointer(rebasing: buffer[0..<n])
                sniffer.feed(piece)
                if isPlist && plist.count <= ContentInfo.maxBytes { plist.append(contentsOf: piece) }
            }
            entry.sniff = sniffer.finish()
            if isPlist { content.contentInfo = plist }
        } catch {
            content.findings.append(.error(error.rule ?? "xar-data", error.entry ?? file.path, offset: error.offset,
                                           "\(error.message); \(error.advice)"))
        }
    }
}

/// Refuses, before decoding, data that claims more bytes than its stored form could ever hold.
enum DecompressionBombCheck {
    /// deflate's best case is about 1032:1; allow that plus a little slack.
    static let maxRatio: UInt64 = 1032

    /// A `size-declared-bomb` finding when `declared` decoded bytes cannot come from `stored` bytes.
    /// Unpacked content beyond this is refused before decoding (we decide: eight times Apple's 2 GiB
    /// upload cap; real content compresses far less, and decoding more would take minutes).
    static let maxDeclaredTotal: UInt64 = 16 << 30

    /// A `size-declared-bomb` finding when a package declares more unpacked bytes than any real one.
    static func totalFinding(declared: UInt64, entry: String?) -> Finding? {
        guard declared > maxDeclaredTotal else { return nil }
        return .error("size-declared-bomb", entry, offset: nil,
            "the package declares \(declared) unpacked bytes, more than the \(maxDeclaredTotal) (16 GiB) any hosted content could need: refused before decoding as a decompression bomb")
    }

    static func finding(entry: String?, declared: UInt64, stored: UInt64, offset: UInt64?) -> Finding? {
        let (product, overflow) = stored.multipliedReportingOverflow(by: maxRatio)
        let possible = overflow ? UInt64.max : product &+ 4096
        guard declared > possible else { return nil }
        return .error("size-declared-bomb", entry, offset: offset,
            "the entry declares \(declared) decoded bytes from only \(stored) stored bytes, more than any compression achieves: a decompression bomb; refuse the package")
    }
}
