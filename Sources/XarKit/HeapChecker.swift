import IAPCore

/// Checks what the TOC says about the heap: the TOC digest, every data range, overlaps and gaps.
struct HeapChecker {
    let header: XarHeader
    let fileSize: UInt64
    let heapOffset: UInt64
    let toc: XarTOC
    let limits: XarLimits
    private(set) var findings: [Finding] = []
    /// The TOC digest's heap range, once known to be inside the file.
    private var digestRange: Range<UInt64>?

    init(header: XarHeader, fileSize: UInt64, toc: XarTOC, limits: XarLimits) {
        self.header = header
        self.fileSize = fileSize
        self.heapOffset = UInt64(XarHeader.byteCount) + header.tocCompressedLength
        self.toc = toc
        self.limits = limits
    }

    /// The absolute file range of `count` bytes at heap `offset`, if it lies inside the file.
    func absoluteRange(offset: UInt64, count: UInt64) -> Range<UInt64>? {
        let (start, overflowA) = heapOffset.addingReportingOverflow(offset)
        let (end, overflowB) = start.addingReportingOverflow(count)
        guard !overflowA, !overflowB, end <= fileSize else { return nil }
        return start..<end
    }

    /// Checks the `<checksum>` of `<toc>` against the header and the digest of the compressed TOC.
    mutating func checkTOCChecksum(digest: [UInt8]?, descriptor: FileDescriptor) throws(XarError) {
        let algorithm = header.checksumAlgorithm
        if toc.checksumCount != 1 && (algorithm != nil || toc.checksumCount > 1) {
            findings.append(.xarError("xar-toc-checksum-count", "the TOC has \(toc.checksumCount) <checksum> elements; exactly one is required"))
        }
        guard let checksum = toc.checksum, let algorithm else { return }
        guard checksum.algorithm == algorithm else {
            findings.append(.xarError("xar-toc-checksum-size",
                                   "the TOC <checksum> style \"\(checksum.style)\" differs from the header's algorithm \(algorithm.rawValue)"))
            return
        }
        guard let offset = checksum.offset, let size = checksum.size else {
            findings.append(.xarError("xar-toc-checksum-range", "the TOC <checksum> lacks a valid <offset> or <size>"))
            return
        }
        guard size == UInt64(algorithm.byteCount) else {
            findings.append(.xarError("xar-toc-checksum-size",
                                   "the TOC <checksum> size is \(size), but a \(algorithm.rawValue) digest is \(algorithm.byteCount) bytes"))
            return
        }
        guard let range = absoluteRange(offset: offset, count: size) else {
            findings.append(.xarError("xar-toc-checksum-range", offset: heapOffset,
                                   "the TOC digest (heap offset \(offset), \(size) bytes) lies outside the file"))
            return
        }
        digestRange = range
        let stored = try xarIO("reading the TOC digest") { try descriptor.read(count: Int(size), at: range.lowerBound) }
        if let digest, stored != digest {
            findings.append(.xarError("xar-toc-checksum-mismatch", offset: range.lowerBound,
                                   "the TOC's \(algorithm.rawValue) digest is \(Hex.encode(digest)), but the heap records \(Hex.encode(stored)): the TOC was altered or damaged"))
        }
    }

    /// Checks each file's fields that need the whole TOC: unique ids, encodings, checksums present.
    mutating func checkFiles() {
        var ids = Set<UInt64>()
        ids.reserveCapacity(toc.files.count)
        for file in toc.files {
            if let id = file.id, !ids.insert(id).inserted {
                findings.append(.xarError("xar-file-id", entry: file.path, "file id \(id) is used more than once"))
            }
            guard let data = file.data else { continue }
            if case .other(let style) = data.encoding {
                findings.append(.xarError("xar-encoding", entry: file.path, "unknown data encoding \"\(style)\""))
            }
            if data.archivedChecksum == nil || data.extractedChecksum == nil {
                let missing = data.archivedChecksum == nil ? "archived-checksum" : "extracted-checksum"
                findings.append(.xarError("xar-checksum-missing", entry: file.path, "the data has no \(missing): its bytes cannot be verified"))
            }
            for (checksum, rule) in [(data.archivedChecksum, "xar-archived-checksum"), (data.extractedChecksum, "xar-extracted-checksum")] {
                guard let checksum else { continue }
                if let algorithm = checksum.algorithm {
                    if checksum.digest.count != algorithm.byteCount {
                        findings.append(.error(rule, file.path, "a \(algorithm.rawValue) checksum must be \(algorithm.byteCount) bytes, this one has \(checksum.digest.count)"))
                    }
                } else {
                    findings.append(.error(rule, file.path, "unsupported checksum style \"\(checksum.style)\""))
                }
            }
        }
    }

    /// Checks that every heap range lies inside the file, that none overlap, and which heap bytes none covers.
    mutating func checkRanges(extra: [ExtraHeapRange], descriptor: FileDescriptor) {
        struct Span { var range: Range<UInt64>; var entry: String? }
        var spans: [Span] = []
        spans.reserveCapacity(toc.files.count + extra.count + 1)
        if let digestRange { spans.append(Span(range: digestRange, entry: nil)) }
        for file in toc.files {
            guard let data = file.data else { continue }
            guard let range = absoluteRange(offset: data.offset, count: data.length) else {
                let start = heapOffset.addingReportingOverflow(data.offset)
                findings.append(.xarError("xar-data-range", entry: file.path, offset: start.overflow ? nil : start.partialValue,
                                       "the data (heap offset \(data.offset), \(data.length) bytes) lies outside the \(fileSize)-byte file"))
                continue
            }
            if !range.isEmpty { spans.append(Span(range: range, entry: file.path)) }
        }
        for item in extra {
            let entry = item.fileIndex.flatMap { $0 < toc.files.count ? toc.files[$0].path : nil }
            guard let range = absoluteRange(offset: item.offset, count: item.length) else {
                findings.append(.xarError("xar-data-range", entry: entry, "the \(item.what) (heap offset \(item.offset), \(item.length) bytes) lies outside the file"))
                continue
            }
            if !range.isEmpty { spans.append(Span(range: range, entry: entry)) }
        }
        spans.sort { ($0.range.lowerBound, $0.range.upperBound) < ($1.range.lowerBound, $1.range.upperBound) }
        var coveredEnd = heapOffset
        var owner: String?
        var gaps = 0
        for span in spans {
            if span.range.lowerBound < coveredEnd {
                let other = owner.map { "the data of \($0)" } ?? "the TOC digest"
                findings.append(.xarError("xar-data-overlap", entry: span.entry, offset: span.range.lowerBound,
                                       "the data overlaps \(other)"))
            } else if span.range.lowerBound > coveredEnd {
                gaps += 1
                if gaps <= 100 { noteGap(coveredEnd..<span.range.lowerBound) }
            }
            if span.range.upperBound > coveredEnd {
                coveredEnd = span.range.upperBound
                owner = span.entry
            }
        }
        if coveredEnd < fileSize && !isLibarchiveTrailer(coveredEnd..<fileSize, descriptor: descriptor) {
            gaps += 1
            if gaps <= 100 { noteGap(coveredEnd..<fileSize) }
        }
        if gaps > 100 {
            findings.append(.xarWarning("xar-heap-unreferenced", "\(gaps - 100) more unreferenced heap gaps were not listed"))
        }
    }

    /// libarchive 3.6's xar writer ends every archive with a copy of the first bytes of the compressed
    /// TOC, as long as the TOC digest; that exact trailer is an artifact of the writer, not hidden data.
    private func isLibarchiveTrailer(_ gap: Range<UInt64>, descriptor: FileDescriptor) -> Bool {
        guard let algorithm = header.checksumAlgorithm, gap.count == algorithm.byteCount,
              header.tocCompressedLength >= UInt64(gap.count),
              let trailer = try? descriptor.read(count: gap.count, at: gap.lowerBound),
              let tocStart = try? descriptor.read(count: gap.count, at: UInt64(XarHeader.byteCount)) else { return false }
        return trailer.count == gap.count && trailer == tocStart
    }

    private mutating func noteGap(_ gap: Range<UInt64>) {
        findings.append(.xarWarning("xar-heap-unreferenced", offset: gap.lowerBound,
                                 "\(gap.count) heap bytes are referenced by no entry"))
    }
}
