import IAPCrypto
import IAPRules
import IAPSystem
import XarKit

/// Checks a bare-tree package: every xar entry becomes a content entry, every file's data is
/// decoded (bounded, checksummed) and sniffed for executable code.
enum TreePackageChecker {
    /// Checks the package; with `hashing` (a publish to an object store) every file's SHA-256 is
    /// taken from the bytes decoded here, for its manifest.
    static func check(_ archive: XarArchive, maxUnpackedBytes: UInt64, hashing: Bool = false) -> PackageContent {
        var content = PackageContent()
        content.entries.reserveCapacity(archive.toc.files.count)
        // Ids matter only for hard links: index them only when there are some.
        let hasHardLinks = archive.toc.files.contains { $0.hardLink != nil }
        let hasEncodedNames = archive.toc.files.contains { $0.storedName != nil }
        let pathByID =
            hasHardLinks
            ? Dictionary(
                archive.toc.files.compactMap { file in file.id.map { ($0, file.path) } },
                uniquingKeysWith: { first, _ in first }) : [:]
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 64)
        defer { buffer.deallocate() }
        let declaredTotal = archive.toc.files.reduce(UInt64(0)) { total, file in
            let (sum, overflow) = total.addingReportingOverflow(file.data?.size ?? 0)
            return overflow ? .max : sum
        }
        let tooBig = UnpackedSizeLimit.finding(total: declaredTotal, limit: maxUnpackedBytes, declared: true)
        for (index, file) in archive.toc.files.enumerated() {
            // Components come from the TOC's nesting and the decoded names, never from splitting a
            // path: a name is one component whatever it holds (a '/' in one is refused below).
            var components = [file.name]
            if let parent = file.parentIndex, parent < index, parent < content.entries.count {
                components = content.entries[parent].components + components
            }
            let stored = hasEncodedNames ? archive.toc.storedPath(ofFileAt: index) : nil
            var entry = ContentEntry(
                rawPath: stored ?? file.path, components: components, kind: ContentEntry.Kind(file.type),
                permissions: (file.mode ?? 0o644) & 0o7777, size: file.data?.size ?? 0,
                linkTarget: file.linkTarget, hasExtendedAttributes: file.hasExtendedAttributes,
                hasFlags: file.hasFlags, offset: file.data.map { archive.heapOffset &+ $0.offset },
                keepingSpelling: true)  // the TOC keeps file.path: entries share it as their path
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
                content.findings.append(
                    Rule.xarFileType.finding(
                        file.path, offset: entry.offset,
                        "the entry is typed '\(file.type.xarName)' but carries a <link> target; some readers (libarchive) extract it as a symlink — rebuild the package"
                    ))
            }
            if let data = file.data, file.type == .directory || file.type == .symlink {
                content.findings.append(
                    Rule.entryDataNotFile.finding(
                        entry,
                        "the \(file.type.xarName) carries \(data.size) bytes of data; only files hold data, and readers disagree on what to do with these — rebuild the package"
                    ))
            }
            if entry.kind == .file, file.data == nil, entry.components == ["ContentInfo.plist"] {
                // xar writers store an empty file without <data>; it is still the plist to judge.
                content.contentInfo = []
            }
            // Every entry's data is decoded and checked, not only regular files': a hard link or a
            // folder may carry bytes too, and some extractor may write them.
            if let owner = archive.sharedData[index], owner < content.entries.count,
                entry.components != ["ContentInfo.plist"]
            {
                // The same heap bytes as an earlier file (xar --coalesce-heap): decoded once, judged as those.
                entry.sniff = content.entries[owner].sniff
                if hashing { content.digests.append(content.digests[owner]) }
            } else if let data = file.data {
                if let bomb = DecompressionBombCheck.finding(
                    entry: file.path, declared: data.size, stored: data.length, offset: entry.offset)
                {
                    content.findings.append(bomb)
                } else if tooBig == nil {
                    let hasher = hashing ? ContentHasher(size: entry.size) : nil
                    decode(file, archive: archive, into: &entry, content: &content, buffer: buffer, hasher: hasher)
                    if hashing { content.digests.append(ContentDigest(hasher)) }
                }
            }
            if hashing && content.digests.count == content.entries.count { content.digests.append(ContentDigest(nil)) }
            content.entries.append(entry)
        }
        if let tooBig { content.findings.append(tooBig) }
        content.findings += LibarchiveNameCheck.findings(archive.toc, entries: content.entries)
        return content
    }

    private static func decode(
        _ file: XarFile, archive: XarArchive, into entry: inout ContentEntry,
        content: inout PackageContent, buffer: UnsafeMutableRawBufferPointer, hasher: ContentHasher?
    ) {
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
                hasher?.update(piece)
                if isPlist && plist.count <= ContentInfo.maxBytes { plist.append(contentsOf: piece) }
            }
            entry.sniff = sniffer.finish()
            if isPlist { content.contentInfo = plist }
        } catch {
            content.findings.append(error.finding(entry: file.path))
        }
    }
}
