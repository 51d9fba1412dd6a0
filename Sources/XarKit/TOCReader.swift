import IAPCompression
import IAPCrypto
import IAPRules
import IAPSystem
import XMLKit

/// What reading the TOC gave: the model, its findings, and the digest of the compressed bytes.
struct TOCReadResult {
    var toc: XarTOC
    var findings: [Finding]
    var extraRanges: [ExtraHeapRange]
    var compressedDigest: [UInt8]?
}

/// Inflates the zlib TOC in chunks straight into the XML parser; the XML is never held whole.
enum TOCReader {
    private struct TooLarge: Error {}

    static let chunkSize = 256 * 1024

    static func read(_ descriptor: FileDescriptor, header: XarHeader, limits: XarLimits) throws(XarError)
        -> TOCReadResult
    {
        let start = UInt64(header.headerSize)
        let end = start + header.tocCompressedLength
        let handler = TOCHandler(limits: limits)
        let xmlLimits = XMLLimits(maxBytes: Int(clamping: limits.maxTOCBytes), maxDepth: limits.maxDepth)
        let parser: StrictXMLParser
        do {
            parser = try StrictXMLParser(doctype: .forbidden, limits: xmlLimits, handler: handler)
        } catch {
            throw XarError(
                rule: Rule.xarTocXml, "could not start the XML parser: \(error)", advice: "report this as a bug")
        }
        let hasher = header.checksumAlgorithm.map { DigestHasher($0) }
        let inflater = Inflater(format: .zlib)
        var produced: UInt64 = 0
        var junkAt: UInt64?
        var position = start
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        do {
            while position < end {
                let want = Int(min(UInt64(chunkSize), end - position))
                let got = try chunk.withUnsafeMutableBytes { buffer in
                    try descriptor.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<want]), at: position)
                }
                guard got == want else {
                    throw XarError(
                        rule: Rule.xarTocLength, "the file ends inside the compressed TOC",
                        offset: position + UInt64(got),
                        advice: "the archive is truncated; rebuild or download it again")
                }
                try chunk.withUnsafeBytes { raw in
                    let piece = UnsafeRawBufferPointer(rebasing: raw[0..<want])
                    hasher?.update(piece)
                    guard !inflater.finished else { return }
                    let consumed = try inflater.decompress(piece) { output in
                        produced += UInt64(output.count)
                        guard produced <= limits.maxTOCBytes else { throw TooLarge() }
                        try parser.feed(output)
                    }
                    if inflater.finished && consumed < want && junkAt == nil { junkAt = position + UInt64(consumed) }
                }
                position += UInt64(want)
            }
            guard inflater.finished else {
                throw XarError(
                    rule: Rule.xarTocLength,
                    "the zlib TOC stream does not end within the declared \(header.tocCompressedLength) compressed bytes",
                    offset: end, advice: "the header's TOC length is wrong or the TOC is cut short; rebuild the archive"
                )
            }
            try parser.finish()
        } catch let error as XarError {
            throw error
        } catch is TooLarge {
            throw XarError(
                rule: Rule.xarTocTooLarge, "the TOC inflates to more than \(limits.maxTOCBytes) bytes",
                offset: start, advice: "refuse the archive; no real package has a TOC this large")
        } catch let error as ZlibError {
            throw XarError(
                rule: Rule.xarTocInflate, "the compressed TOC is corrupt: \(error.reason)",
                offset: start + error.inputOffset, advice: "the archive is damaged; rebuild or download it again")
        } catch let error as XMLError {
            throw tocXMLError(error, offset: start)
        } catch {
            throw XarError.io(error, "reading the TOC of \(descriptor.path)")
        }
        guard handler.sawTOC else {
            throw XarError(
                rule: Rule.xarTocXml, "the TOC has no <xar><toc> element", offset: start,
                advice: "this is not a xar table of contents; rebuild the archive")
        }

        var toc = handler.takeTOC()
        resolvePaths(&toc.files)
        var findings = handler.findings.map { item -> Finding in
            var finding = item.finding
            if let index = item.fileIndex, index < toc.files.count { finding.entry = toc.files[index].path }
            return finding
        }
        if handler.droppedFindings > 0 {
            findings.append(Rule.xarTocXml.finding(nil, "\(handler.droppedFindings) more TOC findings were not listed"))
        }
        if let junkAt {
            findings.append(
                Rule.xarTocLength.finding(
                    nil, offset: junkAt,
                    "the zlib TOC stream ends \(end - junkAt) bytes before the declared compressed length; the rest is junk"
                ))
        }
        if produced != header.tocUncompressedLength {
            findings.append(
                Rule.xarTocSize.finding(
                    nil, offset: 16,
                    "the TOC inflates to \(produced) bytes, but the header declares \(header.tocUncompressedLength)"))
        }
        return TOCReadResult(
            toc: toc, findings: findings, extraRanges: handler.extraRanges, compressedDigest: hasher?.finish())
    }

    /// Joins every file's name onto its parent's path; parents come first in document order.
    private static func resolvePaths(_ files: inout [XarFile]) {
        for index in files.indices {
            if let parent = files[index].parentIndex, parent < index {
                files[index].path = files[parent].path + "/" + files[index].name
            } else {
                files[index].path = files[index].name
            }
        }
    }

    private static func tocXMLError(_ error: XMLError, offset: UInt64) -> XarError {
        let location = error.line > 0 ? " (TOC line \(error.line), column \(error.column))" : ""
        switch error.kind {
        case .doctype, .internalSubset:
            return XarError(
                rule: Rule.xarTocDoctype, "the TOC carries a DOCTYPE: \(error.message)\(location)", offset: offset,
                advice: "a xar TOC never has a DOCTYPE; refuse the archive")
        case .limit:
            return XarError(
                rule: Rule.xarTocTooLarge, "the TOC is beyond the limits: \(error.message)\(location)", offset: offset,
                advice: "refuse the archive; no real package has a TOC this large")
        default:
            return XarError(
                rule: Rule.xarTocXml, "the TOC is not valid xar XML: \(error.message)\(location)", offset: offset,
                advice: "the TOC is damaged or hand-made; rebuild the archive")
        }
    }
}
