import IAPRules
import IAPSystem

/// Where a file's stored bytes sit in the heap, as its TOC says: heap offset and length.
struct HeapSpan: Hashable, Sendable {
    let offset: UInt64
    let length: UInt64

    /// The span of `data`.
    init(_ data: XarData) {
        offset = data.offset
        length = data.length
    }
}

/// Checks what the TOC says about the heap: the TOC digest, every data range, overlaps and gaps.
struct HeapChecker {
    let header: XarHeader
    let fileSize: UInt64
    let heapOffset: UInt64
    let toc: XarTOC
    let limits: XarLimits
    private(set) var findings: [Finding] = []
    /// Files whose data range coincides exactly with an earlier file's and agrees with it
    /// (`xar --coalesce-heap`): file index → the index of the first file with that range.
    private(set) var sharedData: [Int: Int] = [:]
    /// The data ranges (heap offset, length) of files whose data lies outside the file: the one
    /// record of the range check, kept by the archive so that a data stream refuses these and trusts
    /// every other file's range of its TOC without checking it again. Empty for a sound archive.
    private(set) var dataOutsideFile: Set<HeapSpan> = []
    /// The TOC digest's heap range, once known to be inside the file.
    private var digestRange: Range<UInt64>?

    init(header: XarHeader, fileSize: UInt64, toc: XarTOC, limits: XarLimits) {
        self.header = header
        self.fileSize = fileSize
        self.heapOffset = UInt64(header.headerSize) + header.tocCompressedLength
        self.toc = toc
        self.limits = limits
    }

    /// The absolute file range of `count` bytes at heap `offset`, if it lies inside the file.
    private func absoluteRange(offset: UInt64, count: UInt64) -> Range<UInt64>? {
        let (start, overflowA) = heapOffset.addingReportingOverflow(offset)
        let (end, overflowB) = start.addingReportingOverflow(count)
        guard !overflowA, !overflowB, end <= fileSize else { return nil }
        return start..<end
    }

    /// Checks the `<checksum>` of `<toc>` against the header and the digest of the compressed TOC.
    mutating func checkTOCChecksum(digest: [UInt8]?, descriptor: FileDescriptor) throws(XarError) {
        let algorithm = header.checksumAlgorithm
        if toc.checksumCount != 1 && (algorithm != nil || toc.checksumCount > 1) {
            findings.append(
                Rule.xarTocChecksumCount.finding(
                    nil,
                    "the TOC has \(toc.checksumCount) <checksum> elements; exactly one is required"))
        }
        guard let checksum = toc.checksum, let algorithm else { return }
        guard checksum.algorithm == algorithm else {
            let how =
                header.headerSize == UInt16(XarHeader.byteCount)
                ? "code \(header.checksumAlgorithmCode) in a 28-byte header"
                : "named in the \(header.headerSize)-byte header"
            findings.append(
                Rule.xarTocChecksumSize.finding(
                    nil, offset: 24,
                    "the TOC <checksum> style \"\(checksum.style)\" differs from the header's algorithm \(algorithm.rawValue) (\(how)); the two must name the same digest"
                ))
            return
        }
        guard let offset = checksum.offset, let size = checksum.size else {
            findings.append(
                Rule.xarTocChecksumRange.finding(nil, "the TOC <checksum> lacks a valid <offset> or <size>"))
            return
        }
        guard size == UInt64(algorithm.byteCount) else {
            findings.append(
                Rule.xarTocChecksumSize.finding(
                    nil,
                    "the TOC <checksum> size is \(size), but a \(algorithm.rawValue) digest is \(algorithm.byteCount) bytes"
                ))
            return
        }
        guard let range = absoluteRange(offset: offset, count: size) else {
            findings.append(
                Rule.xarTocChecksumRange.finding(
                    nil, offset: heapOffset,
                    "the TOC digest (heap offset \(offset), \(size) bytes) lies outside the file"))
            return
        }
        digestRange = range
        let stored = try xarIO("reading the TOC digest") { try descriptor.read(count: Int(size), at: range.lowerBound) }
        if let digest, stored != digest {
            findings.append(
                Rule.xarTocChecksumMismatch.finding(
                    nil, offset: range.lowerBound,
                    "the TOC's \(algorithm.rawValue) digest is \(Hex.encode(digest)), but the heap records \(Hex.encode(stored)): the TOC was altered or damaged"
                ))
        }
    }

    /// Checks each file's fields that need the whole TOC: unique ids, encodings, checksums present.
    mutating func checkFiles() {
        var ids = Set<UInt64>()
        ids.reserveCapacity(toc.files.count)
        var md5Files = 0
        var firstMD5File: String?
        for file in toc.files {
            if let id = file.id, !ids.insert(id).inserted {
                findings.append(Rule.xarFileId.finding(file.path, "file id \(id) is used more than once"))
            }
            guard let data = file.data else { continue }
            if case .other(let style) = data.encoding {
                findings.append(Rule.xarEncoding.finding(file.path, "unknown data encoding \"\(style)\""))
            }
            if data.archivedChecksum == nil || data.extractedChecksum == nil {
                let missing = data.archivedChecksum == nil ? "archived-checksum" : "extracted-checksum"
                findings.append(
                    Rule.xarChecksumMissing.finding(
                        file.path,
                        "the data has no \(missing): its bytes cannot be verified"))
            }
            var sawMD5 = false
            for (checksum, rule) in [
                (data.archivedChecksum, Rule.xarArchivedChecksum), (data.extractedChecksum, Rule.xarExtractedChecksum),
            ] {
                guard let checksum else { continue }
                if let algorithm = checksum.algorithm {
                    if checksum.digest.count != algorithm.byteCount {
                        findings.append(
                            rule.finding(
                                file.path,
                                "a \(algorithm.rawValue) checksum must be \(algorithm.byteCount) bytes, this one has \(checksum.digest.count)"
                            ))
                    }
                    sawMD5 = sawMD5 || algorithm.isBroken
                } else {
                    findings.append(rule.finding(file.path, "unsupported checksum style \"\(checksum.style)\""))
                }
            }
            if sawMD5 {
                md5Files += 1
                if firstMD5File == nil { firstMD5File = file.path }
            }
        }
        if let firstMD5File {
            let others = md5Files > 1 ? " and \(md5Files - 1) more are" : " is"
            findings.append(
                Rule.xarChecksumMd5.finding(
                    firstMD5File,
                    "this file\(others) checked with MD5, which is broken: the bytes could be altered unseen; rebuild with SHA-1 or better"
                ))
        }
    }

    /// Checks that every heap range lies inside the file, that none overlap (except identical files
    /// sharing one range), and which heap bytes none covers.
    mutating func checkRanges(extra: [ExtraHeapRange], descriptor: FileDescriptor) {
        struct Span {
            var range: Range<UInt64>
            var entry: String?
            var fileIndex: Int?
        }
        var spans: [Span] = []
        spans.reserveCapacity(toc.files.count + extra.count + 1)
        if let digestRange { spans.append(Span(range: digestRange, entry: nil, fileIndex: nil)) }
        for (index, file) in toc.files.enumerated() {
            guard let data = file.data else { continue }
            guard let range = absoluteRange(offset: data.offset, count: data.length) else {
                let start = heapOffset.addingReportingOverflow(data.offset)
                findings.append(
                    Rule.xarDataRange.finding(
                        file.path, offset: start.overflow ? nil : start.partialValue,
                        "the data (heap offset \(data.offset), \(data.length) bytes) lies outside the \(fileSize)-byte file"
                    ))
                dataOutsideFile.insert(HeapSpan(data))
                continue
            }
            if !range.isEmpty { spans.append(Span(range: range, entry: file.path, fileIndex: index)) }
        }
        for item in extra {
            let entry = item.fileIndex.flatMap { $0 < toc.files.count ? toc.files[$0].path : nil }
            guard let range = absoluteRange(offset: item.offset, count: item.length) else {
                findings.append(
                    Rule.xarDataRange.finding(
                        entry,
                        "the \(item.what) (heap offset \(item.offset), \(item.length) bytes) lies outside the file"))
                continue
            }
            if !range.isEmpty { spans.append(Span(range: range, entry: entry, fileIndex: nil)) }
        }
        spans.sort { ($0.range.lowerBound, $0.range.upperBound) < ($1.range.lowerBound, $1.range.upperBound) }
        var coveredEnd = heapOffset
        var owner: Span?
        var gaps = 0
        for span in spans {
            if span.range.lowerBound < coveredEnd {
                if let owner, owner.range == span.range, let first = owner.fileIndex, let second = span.fileIndex {
                    if let problem = disagreement(first, second) {
                        findings.append(
                            Rule.xarDataOverlap.finding(
                                span.entry, offset: span.range.lowerBound,
                                "the data shares its heap range with \(owner.entry ?? "another file") but \(problem); shared data must be identical"
                            ))
                    } else {
                        sharedData[second] = sharedData[first] ?? first
                    }
                    continue
                }
                let other = owner?.entry.map { "the data of \($0)" } ?? "the TOC digest"
                findings.append(
                    Rule.xarDataOverlap.finding(
                        span.entry, offset: span.range.lowerBound,
                        "the data overlaps \(other)"))
            } else if span.range.lowerBound > coveredEnd {
                gaps += 1
                if gaps <= 100 { noteGap(coveredEnd..<span.range.lowerBound) }
            }
            if span.range.upperBound > coveredEnd {
                coveredEnd = span.range.upperBound
                owner = span
            }
        }
        if coveredEnd < fileSize && !isLibarchiveTrailer(coveredEnd..<fileSize, descriptor: descriptor) {
            gaps += 1
            if gaps <= 100 { noteGap(coveredEnd..<fileSize) }
        }
        if gaps > 100 {
            findings.append(
                Rule.xarHeapUnreferenced.finding(nil, "\(gaps - 100) more unreferenced heap gaps were not listed"))
        }
    }

    /// Why two files naming the same heap range cannot share it, or nil when they describe the same
    /// bytes the same way (encoding, sizes, both checksums).
    private func disagreement(_ first: Int, _ second: Int) -> String? {
        guard let a = toc.files[first].data, let b = toc.files[second].data else { return "one has no data" }
        if a.encoding != b.encoding { return "its encoding differs (\(b.encoding.style), not \(a.encoding.style))" }
        if a.size != b.size { return "its declared size differs (\(b.size), not \(a.size))" }
        if a.archivedChecksum != b.archivedChecksum || a.archivedChecksum == nil {
            return "its archived checksum differs"
        }
        if a.extractedChecksum != b.extractedChecksum { return "its extracted checksum differs" }
        return nil
    }

    /// libarchive 3.6's xar writer ends every archive with a copy of the first bytes of the compressed
    /// TOC, as long as the TOC digest; that exact trailer is an artifact of the writer, not hidden data.
    private func isLibarchiveTrailer(_ gap: Range<UInt64>, descriptor: FileDescriptor) -> Bool {
        guard let algorithm = header.checksumAlgorithm, gap.count == algorithm.byteCount,
            header.tocCompressedLength >= UInt64(gap.count),
            let trailer = try? descriptor.read(count: gap.count, at: gap.lowerBound),
            let tocStart = try? descriptor.read(count: gap.count, at: UInt64(header.headerSize))
        else { return false }
        return trailer.count == gap.count && trailer == tocStart
    }

    private mutating func noteGap(_ gap: Range<UInt64>) {
        findings.append(
            Rule.xarHeapUnreferenced.finding(
                nil, offset: gap.lowerBound,
                "\(gap.count) heap bytes are referenced by no entry"))
    }
}
