import IAPRules
import IAPSystem

/// A xar archive opened strictly: header and TOC parsed and checked, data read on demand.
package final class XarArchive: Sendable {
    /// The path the archive was opened from.
    package let path: String
    /// The archive file's size in bytes.
    package var fileSize: UInt64 { openedStatus.size }
    /// The archive file's status when it was opened (size, modification time…).
    package let openedStatus: FileStatus
    /// The 28-byte header.
    package let header: XarHeader
    /// Where the heap starts: 28 + the declared compressed TOC length.
    package let heapOffset: UInt64
    /// The table of contents.
    package let toc: XarTOC
    /// Every problem found while opening, in the order found.
    package let findings: [Finding]
    /// The limits the archive was opened with.
    package let limits: XarLimits
    /// Files whose data is another file's (one heap range, identical description, as
    /// `xar --coalesce-heap` writes): file index → index of the first file with that range.
    /// Decode the first one; the others hold the same bytes.
    package let sharedData: [Int: Int]
    /// What checking each TOC signature found, in TOC order (empty when unsigned).
    package let signatureChecks: [XarSignatureCheck]
    let descriptor: FileDescriptor
    /// The data ranges that `open` found outside the file (``HeapChecker``); every other data range
    /// of the TOC was checked inside it, once, so data streams read it without a second check.
    let dataOutsideFile: Set<HeapSpan>

    private init(
        path: String, openedStatus: FileStatus, header: XarHeader, toc: XarTOC, findings: [Finding],
        limits: XarLimits, sharedData: [Int: Int], dataOutsideFile: Set<HeapSpan>, descriptor: FileDescriptor,
        signatureChecks: [XarSignatureCheck]
    ) {
        self.sharedData = sharedData
        self.dataOutsideFile = dataOutsideFile
        self.path = path
        self.openedStatus = openedStatus
        self.header = header
        self.heapOffset = UInt64(header.headerSize) + header.tocCompressedLength
        self.toc = toc
        self.findings = findings
        self.limits = limits
        self.descriptor = descriptor
        self.signatureChecks = signatureChecks
    }

    /// Opens and checks the archive at `path`; throws when it is not a readable xar at all.
    package static func open(path: String, limits: XarLimits = .init()) throws(XarError) -> XarArchive {
        let descriptor = try xarIO("opening \(path)") { try FileDescriptor.openForReading(path) }
        let openedStatus = try xarIO("reading the size of \(path)") { try descriptor.status() }
        let fileSize = openedStatus.size
        var headerBytes = try xarIO("reading \(path)") { try descriptor.read(count: XarHeader.byteCount, at: 0) }
        if headerBytes.count == XarHeader.byteCount {
            let declared = Int(headerBytes.uint16BE(at: 4))
            if declared > XarHeader.byteCount && declared <= XarHeader.maxByteCount {
                headerBytes = try xarIO("reading \(path)") { try descriptor.read(count: declared, at: 0) }
            }
        }
        var findings: [Finding] = []
        let header = try checkHeader(headerBytes, fileSize: fileSize, limits: limits, findings: &findings)
        let result = try TOCReader.read(descriptor, header: header, limits: limits)
        findings += result.findings
        var checker = HeapChecker(header: header, fileSize: fileSize, toc: result.toc, limits: limits)
        try checker.checkTOCChecksum(digest: result.compressedDigest, descriptor: descriptor)
        checker.checkFiles()
        checker.checkRanges(extra: result.extraRanges, descriptor: descriptor)
        findings += checker.findings
        let signing = XarSignatureVerifier.verify(
            result.toc.signatures, digest: result.compressedDigest,
            algorithm: header.checksumAlgorithm,
            heap: .init(descriptor: descriptor, heapOffset: checker.heapOffset, fileSize: fileSize))
        findings += signing.findings
        if findings.count > limits.maxFindings {
            let dropped = findings.count - limits.maxFindings
            findings.removeLast(dropped)
            findings.append(Rule.xarTocXml.finding(nil, "\(dropped) more findings were not listed"))
        }
        return XarArchive(
            path: path, openedStatus: openedStatus, header: header, toc: result.toc, findings: findings,
            limits: limits, sharedData: checker.sharedData, dataOutsideFile: checker.dataOutsideFile,
            descriptor: descriptor, signatureChecks: signing.checks)
    }

    /// Whether the file was written (or cut, or grown) since it was opened: its size or
    /// modification time is not what it was then, or it cannot be read any more.
    package var changedSinceOpened: Bool {
        guard let now = try? descriptor.status() else { return true }
        return now.size != openedStatus.size || now.modificationTime != openedStatus.modificationTime
            || now.modificationNanoseconds != openedStatus.modificationNanoseconds
    }

    private static func checkHeader(
        _ bytes: [UInt8], fileSize: UInt64, limits: XarLimits,
        findings: inout [Finding]
    ) throws(XarError) -> XarHeader {
        guard fileSize > 0 else {
            throw XarError(
                rule: Rule.xarMagic, "the file is empty (0 bytes)", offset: 0,
                advice: "the download or copy did not happen; fetch the package again")
        }
        guard bytes.count >= 4, bytes.uint32BE(at: 0) == XarHeader.expectedMagic else {
            throw XarError(
                rule: Rule.xarMagic, "the file does not start with the xar magic \"xar!\"", offset: 0,
                advice: "this is not a xar archive (flat package); check that the right file was given")
        }
        guard let header = XarHeader.parse(bytes) else {
            throw XarError(
                rule: Rule.xarHeaderSize, "the file ends inside the 28-byte xar header", offset: UInt64(bytes.count),
                advice: "the archive is truncated; rebuild or download it again")
        }
        let size = Int(header.headerSize)
        guard size >= XarHeader.byteCount, size <= XarHeader.maxByteCount else {
            throw XarError(
                rule: Rule.xarHeaderSize,
                "the header declares a size of \(size) bytes; a xar header has 28 (or up to \(XarHeader.maxByteCount) with an algorithm name)",
                offset: 4, advice: "this is not a well-formed xar archive; refuse it")
        }
        guard header.extraBytes.count == size - XarHeader.byteCount else {
            throw XarError(
                rule: Rule.xarHeaderSize, "the file ends inside the \(size)-byte xar header",
                offset: UInt64(XarHeader.byteCount + header.extraBytes.count),
                advice: "the archive is truncated; rebuild or download it again")
        }
        if header.version != 1 {
            findings.append(
                Rule.xarVersion.finding(nil, offset: 6, "the header declares version \(header.version), not 1"))
        }
        switch header.checksumScheme {
        case .none:
            findings.append(
                Rule.xarChecksumNone.finding(
                    nil, offset: 24,
                    "the header's TOC checksum algorithm is \"none\": the TOC cannot be verified"))
        case .algorithm(let algorithm, _):
            if algorithm.isBroken {
                findings.append(
                    Rule.xarChecksumMd5.finding(
                        nil, offset: 24,
                        "the TOC checksum algorithm is MD5, which is broken; use SHA-1 or better"))
            }
        case .unknownCode(let code):
            findings.append(
                Rule.xarChecksumNone.finding(
                    nil, offset: 24,
                    "the header's TOC checksum algorithm code \(code) is unknown: the TOC cannot be verified"))
        case .unknownName(let name):
            findings.append(
                Rule.xarChecksumNone.finding(
                    nil, offset: 28,
                    "the header names the TOC checksum algorithm \"\(name)\", which is not supported: the TOC cannot be verified"
                ))
        case .sizeMismatch(let found, let expected):
            throw XarError(
                rule: Rule.xarHeaderSize,
                "the header is \(found) bytes with checksum code \(header.checksumAlgorithmCode); expected \(expected)",
                offset: 4, advice: "the header is damaged or hand-made; refuse the archive")
        }
        guard header.tocUncompressedLength <= limits.maxTOCBytes else {
            throw XarError(
                rule: Rule.xarTocTooLarge,
                "the header declares a \(header.tocUncompressedLength)-byte TOC, more than the \(limits.maxTOCBytes) allowed",
                offset: 16, advice: "refuse the archive; no real package has a TOC this large")
        }
        let available = fileSize >= UInt64(size) ? fileSize - UInt64(size) : 0
        guard header.tocCompressedLength <= available else {
            throw XarError(
                rule: Rule.xarTocLength,
                "the header declares \(header.tocCompressedLength) compressed TOC bytes, but only \(available) follow the header",
                offset: 8, advice: "the archive is truncated or its header is wrong; rebuild or download it again")
        }
        guard header.tocCompressedLength > 0 else {
            throw XarError(
                rule: Rule.xarTocLength, "the header declares an empty TOC", offset: 8,
                advice: "the archive is damaged; rebuild it")
        }
        return header
    }

    /// A bounded, checking stream of `file`'s decoded bytes; `file` is one of ``toc``'s files (its
    /// heap range was checked when the archive was opened). With `checkingDigests` false the TOC's
    /// checksums are not computed: for a second read of bytes the caller holds to digests of its own.
    package func dataStream(for file: XarFile, readAhead: Bool = true, checkingDigests: Bool = true) throws(XarError)
        -> XarDataStream
    {
        try XarDataStream(archive: self, file: file, readAhead: readAhead, checkingDigests: checkingDigests)
    }

    /// All of `file`'s decoded bytes, checked; refuses entries larger than `maxBytes`.
    package func readAll(_ file: XarFile, maxBytes: Int) throws(XarError) -> [UInt8] {
        let declared = try declaredSize(of: file, maxBytes: maxBytes)
        if let whole = wholeZlibRead(file, declared: declared) { return whole }
        return try readAllStreamed(file, declared: declared)
    }

    /// The size `file` declares, refused when over `maxBytes`.
    func declaredSize(of file: XarFile, maxBytes: Int) throws(XarError) -> UInt64 {
        let declared = file.data?.size ?? 0
        guard declared <= UInt64(max(0, maxBytes)), declared < (1 << 40) else {
            throw XarError(
                rule: nil, "the entry declares \(declared) bytes, more than the \(maxBytes) allowed here",
                entry: file.path, advice: "stream it with dataStream(for:) instead")
        }
        return declared
    }

    /// `file`'s bytes through `XarDataStream`, which makes every check and names what fails.
    func readAllStreamed(_ file: XarFile, declared: UInt64) throws(XarError) -> [UInt8] {
        let stream = try dataStream(for: file)
        // Decoded straight into the array returned (no second copy): Boms run to tens of MB.
        var failure: XarError?
        let bytes = [UInt8](unsafeUninitializedCapacity: Int(declared) + 1) { buffer, count in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            count = 0
            do throws(XarError) {
                while true {
                    let n = try stream.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[count...]))
                    if n == 0 { break }
                    count += n
                    guard count <= Int(declared) else {
                        throw XarError(
                            rule: Rule.xarDataSize, "the entry decodes to more than its declared \(declared) bytes",
                            entry: file.path, advice: "the archive is damaged or hostile; refuse it")
                    }
                }
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return bytes
    }

    /// Streams every file's data through its checks; one finding per file that fails.
    package func verifyAllData() -> [Finding] {
        var found: [Finding] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        for (index, file) in toc.files.enumerated() where file.data != nil && sharedData[index] == nil {
            do throws(XarError) {
                let stream = try dataStream(for: file)
                while try stream.read(into: buffer) > 0 {}
            } catch {
                found.append(error.finding(entry: file.path))
            }
            if found.count >= limits.maxFindings { break }
        }
        return found
    }
}
