import BomKit
import IAPRules
import IAPSystem
import PayloadKit
import XarKit

/// Reads what a package holds from its TOC, Bom and PackageInfo, inflating only the head of the
/// Payload (to reach ContentInfo.plist, its second entry), so it takes milliseconds at any size.
public enum PackageInspector {
    /// Inspects the package at `path`.
    public static func inspect(_ path: String) throws(IAPKitError) -> InspectReport {
        guard !(try FileStatus.ofInput(path)).isDirectory else {
            throw .refused("\(path) is a folder; inspect reads a .pkg (use iapkg validate to check a content folder)")
        }
        let archive: XarArchive
        do {
            archive = try XarArchive.open(path: path)
        } catch {
            throw Self.openError(error, path: path)
        }
        let (parts, shapeFindings) = PackageParts.detect(archive.toc)
        var notes = FindingLog(archive.findings + shapeFindings)
        let signatures = archive.signatureChecks.isEmpty ? nil : archive.signatureChecks
        var report = InspectReport(
            path: path, shape: parts.shape, productIdentifier: nil, contentVersion: nil, extraKeys: [],
            componentName: parts.componentName,
            checksumAlgorithm: archive.toc.checksum?.style ?? "none", compression: "",
            packageSize: archive.fileSize,
            storedSize: archive.toc.files.reduce(UInt64(0)) { $0.addingSaturated($1.data?.length ?? 0) },
            notes: [])
        var plistBytes: [UInt8]?
        var plistPresent = false
        do {
            switch parts.shape {
            case .product:
                report.compression = "gzip"
                // The Payload's head (for ContentInfo.plist) is decoded on a second core meanwhile.
                let head = parts.payload.map { payload in
                    ConcurrentResult { Result { try contentInfoFromPayloadHead(archive, payload) } }
                }
                // A Bom that cannot be read is told after the head is in: the product and version still show.
                var bomFailure: (any Error)?
                if let bom = parts.bom {
                    // Listed straight from the Bom's tree, already in depth-first order.
                    do { report.listing = InspectListing(bom: try bomTree(bom, in: archive)) } catch {
                        bomFailure = error
                    }
                }
                if let head {
                    switch head.value() {
                    case .success(let (plist, compression)):
                        plistBytes = plist
                        report.compression = compression?.rawValue ?? report.compression
                    case .failure(let error):
                        if bomFailure == nil { throw error }
                    }
                }
                if let bomFailure { throw bomFailure }
            case .tree:
                let encodings = Set(archive.toc.files.compactMap { $0.data?.encoding.style })
                report.compression = encodings.map(encodingName).sorted().joined(separator: ", ")
                var modes = ModeText()
                report.listing = InspectListing(
                    files: DepthFirstOrder.sorted(archive.toc.files.compactMap { file(from: $0, modes: &modes) }))
                if let plist = archive.toc.files.first(where: {
                    ContentEntry.components(of: $0.path) == ["ContentInfo.plist"]
                }) {
                    plistPresent = true
                    plistBytes = try readContentInfo(plist, archive: archive, notes: &notes)
                }
            }
        } catch let error as XarError {
            notes.report(error.finding())  // kept only if the open did not report it already
        } catch let error as BomError {
            notes.report(error.rule.finding(parts.bom?.path, offset: nil, "the Bom cannot be read: \(error)"))
        } catch let error as PayloadError {
            let offset = parts.payload.flatMap {
                ProductPackageChecker.packageOffset(of: error, in: $0, archive: archive)
            }
            notes.report(
                error.rule.finding(parts.payload?.path, offset: offset, "the Payload cannot be read: \(error)"))
        } catch {
            notes.report(Rule.xarData.finding(nil, offset: nil, "\(error)"))
        }
        if let plistBytes {
            let (info, findings) = ContentInfo.read(plistBytes)
            notes.report(findings)
            report.productIdentifier = info?.productIdentifier
            report.contentVersion = info?.contentVersion.text
            report.extraKeys = info?.extraKeys ?? []
        } else if parts.shape == .tree && !plistPresent {
            notes.report(
                Rule.shapeMissingContentinfo.finding(
                    "ContentInfo.plist", offset: nil,
                    "the package has no ContentInfo.plist"))
        }
        report.notes = notes.findings
        report.signatures = signatures?.map(SignatureCheck.init)
        return report
    }

    /// The bytes of a tree package's ContentInfo.plist; nil, with a note saying why, when it is there
    /// but cannot be decoded (not a file, an encoding or checksum that fails).
    private static func readContentInfo(_ plist: XarFile, archive: XarArchive, notes: inout FindingLog) throws
        -> [UInt8]?
    {
        guard plist.type == .file else {
            notes.report(
                Rule.shapeContentinfoType.finding(
                    "ContentInfo.plist", offset: nil,
                    "ContentInfo.plist is a \(plist.type.xarName), not a file, so the product and version cannot be read"
                ))
            return nil
        }
        do {
            return try archive.readAll(plist, maxBytes: ContentInfo.maxBytes)
        } catch {
            var finding = error.finding()
            finding.entry = "ContentInfo.plist"
            finding.message = "ContentInfo.plist is present but could not be decoded: " + finding.message
            notes.report(finding)
            return nil
        }
    }

    static func openError(_ error: XarError, path: String) -> IAPKitError {
        guard error.rule != nil else { return .failed(error.message) }
        return .invalid(path: path, findings: [error.finding()])
    }

    private static func encodingName(_ style: String) -> String {
        switch XarEncoding(style: style) {
        case .stored: "stored"
        case .zlib: "zlib"
        case .bzip2: "bzip2"
        case .lzma: "lzma"
        case .xz: "xz"
        case .other(let other): other
        }
    }

    /// Decodes the Payload only as far as ContentInfo.plist (normally its second entry); also says
    /// how the Payload is compressed.
    static func contentInfoFromPayloadHead(
        _ archive: XarArchive,
        _ payload: XarFile
    ) throws -> (plist: [UInt8]?, compression: PayloadCompression?) {
        // No read-ahead, small reads, no whole-member decoding: only the head is decoded, so reading
        // (and digesting, and inflating) more is waste.
        let stream = try archive.dataStream(for: payload, readAhead: false)
        var leading: [UInt8] = []
        let reader = try PayloadReader(maxDecodedBytes: CpioLimits.inspectedBytes, headOnly: true) { buffer in
            let n = try stream.read(into: buffer)
            if leading.count < 6 { leading += buffer[0..<min(n, 6 - leading.count)] }
            return n
        }
        let compression = PayloadCompression.detect(leading)
        return (try plistFromPayload(reader), compression)
    }

    /// The bytes of ContentInfo.plist if it is among the Payload's first entries.
    private static func plistFromPayload(_ reader: PayloadReader) throws -> [UInt8]? {
        for _ in 0..<16 {
            guard let entry = try reader.nextEntry() else { return nil }
            guard ContentEntry.components(of: entry.path) == ["ContentInfo.plist"], entry.kind == .file else {
                continue
            }
            guard entry.size <= UInt64(ContentInfo.maxBytes) else {
                return [UInt8](repeating: 0, count: ContentInfo.maxBytes + 1)
            }
            var bytes = [UInt8]()
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 16)
            defer { buffer.deallocate() }
            while true {
                let n = try reader.readData(into: buffer)
                if n == 0 { break }
                bytes.append(contentsOf: buffer[0..<n])
            }
            return bytes
        }
        return nil
    }

    /// A stored path without its "./" (cheap: no splitting), nil for the root itself.
    private static func contentPath(_ stored: String) -> String? {
        if stored == "." || stored.isEmpty { return nil }
        var copy = stored
        let stripped: String? = copy.withUTF8 { bytes in
            guard bytes.count >= 2, bytes[0] == UInt8(ascii: "."), bytes[1] == UInt8(ascii: "/") else { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[2...]), as: UTF8.self)
        }
        return stripped ?? stored
    }

    /// The Bom's tree, its extracted checksum checked on another core while the tree is parsed.
    private static func bomTree(_ bom: XarFile, in archive: XarArchive) throws -> BomTree {
        let (bytes, confirm) = try archive.readAllConfirmingLater(bom, maxBytes: BomLimits.bomBytes)
        let tree: BomTree
        do {
            tree = try BomReader.readTree(bytes)
        } catch {
            try confirm()  // damaged bytes are told as such, not as the parse fault they cause
            throw error
        }
        try confirm()
        return tree
    }

    private static func file(from entry: XarFile, modes: inout ModeText) -> InspectReport.File? {
        guard let path = contentPath(entry.path) else { return nil }
        return InspectReport.File(
            path: path, type: ContentEntry.Kind(entry.type),
            size: entry.data?.size ?? 0, mode: modes.text((entry.mode ?? 0) & 0o7777),
            linkTarget: entry.linkTarget)
    }
}
