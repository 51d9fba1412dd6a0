import BomKit
import IAPCore
import PayloadKit
import XarKit

/// Checks a product archive: Distribution and PackageInfo readable and consistent, the Bom read,
/// and the Payload decoded entry by entry, sniffed, and held against the Bom.
enum ProductPackageChecker {
    static func check(_ archive: XarArchive, parts: PackageParts) -> PackageContent {
        var content = PackageContent()
        let component = (parts.componentName ?? "?") + ".pkg"
        if let distribution = parts.distribution {
            do {
                let refs = try ProductArchiveDocuments.componentReferences(inDistribution: try archive.readAll(distribution, maxBytes: 1 << 20))
                if !refs.contains(component) {
                    content.findings.append(.error("shape-distribution", "Distribution",
                        "the Distribution does not reference #\(component) (it names \(refs.isEmpty ? "nothing" : refs.joined(separator: ", ")))"))
                }
            } catch {
                content.findings.append(finding(error, rule: "shape-distribution", entry: "Distribution"))
            }
        }
        if let packageInfo = parts.packageInfo {
            do {
                _ = try ProductArchiveDocuments.readPackageInfo(try archive.readAll(packageInfo, maxBytes: 1 << 20))
            } catch {
                content.findings.append(finding(error, rule: "shape-packageinfo", entry: packageInfo.path))
            }
        }
        var bom: BomIndex?
        if let bomFile = parts.bom {
            do {
                bom = BomIndex(try BomReader.read(try archive.readAll(bomFile, maxBytes: 256 << 20)))
            } catch {
                content.findings.append(finding(error, rule: "shape-bom", entry: bomFile.path))
            }
        }
        if parts.payload?.data == nil { content.incomplete = true }
        if let payload = parts.payload, let data = payload.data {
            let declared = bom?.declaredFileBytes ?? 0
            let offset = archive.heapOffset &+ data.offset
            if let bomb = DecompressionBombCheck.totalFinding(declared: declared, entry: payload.path)
                ?? DecompressionBombCheck.finding(entry: payload.path, declared: declared, stored: data.length, offset: offset) {
                content.findings.append(bomb)
                content.incomplete = true
            } else {
                let headers = UInt64(bom?.count ?? 0) * (76 + 1026) + (1 << 20)
                let cap = bom == nil ? min(data.length &* DecompressionBombCheck.maxRatio, 1 << 36) : declared &+ headers
                decodePayload(payload, archive: archive, bom: bom, bomFile: parts.bom, cap: cap, into: &content)
            }
        }
        return content
    }

    private static func decodePayload(_ payload: XarFile, archive: XarArchive, bom original: BomIndex?, bomFile: XarFile?, cap: UInt64,
                                      into content: inout PackageContent) {
        var bom = original
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 64)
        defer { buffer.deallocate() }
        do {
            let stream = try archive.dataStream(for: payload)
            let reader = try PayloadReader(maxDecodedBytes: cap) { target in try stream.read(into: target) }
            while let item = try reader.nextEntry() {
                if item.path != "." && !item.path.hasPrefix("./") {
                    content.findings.append(.error("shape-payload-prefix", item.path,
                        "a Payload path must start with './' (found '\(item.path)'); the package was not made by pkgbuild or iapkg"))
                }
                var entry = ContentEntry(rawPath: item.path, kind: ContentEntry.Kind(item.kind), permissions: item.mode & 0o7777,
                                         size: item.kind == .file ? item.size : 0, linkTarget: item.linkTarget,
                                         hardlinkTarget: item.hardlinkTarget)
                var sniffer = ExecutableSniffer(fileSize: item.size)
                var checksum = BomChecksum()
                let isPlist = entry.components == ["ContentInfo.plist"]
                var plist: [UInt8] = []
                if item.kind == .file {
                    while true {
                        let n = try reader.readData(into: buffer)
                        if n == 0 { break }
                        let piece = UnsafeRawBufferPointer(rebasing: buffer[0..<n])
                        sniffer.feed(piece)
                        checksum.update(piece)
                        if isPlist && plist.count <= ContentInfo.maxBytes { plist.append(contentsOf: piece) }
                    }
                    entry.sniff = sniffer.finish()
                    if isPlist { content.contentInfo = plist }
                }
                if bom != nil {
                    let record = bom?.take(item.path)
                    compare(item, entry: entry, checksum: item.kind == .file ? checksum.finalize() : nil, with: record, into: &content)
                }
                content.entries.append(entry)
            }
        } catch let error as XarError {
            content.incomplete = true
            content.findings.append(.error(error.rule ?? "xar-data", error.entry ?? payload.path, offset: error.offset,
                                           "\(error.message); \(error.advice)"))
        } catch let error as PayloadError {
            if case .invalidEntry(let headerOffset, let reason) = error, reason.contains("not valid UTF-8") {
                content.findings.append(.error("entry-name-invalid", payload.path,
                    "the Payload entry whose header starts at decoded byte \(headerOffset) is invalid: \(reason); names must be UTF-8 — rename it and rebuild (entries after it were not checked)"))
            } else if case .decompressionBomb = error {
                content.findings.append(.error("size-declared-bomb", payload.path,
                    "the Payload decodes to more than its Bom declares (\(error)); a decompression bomb — refuse the package"))
            } else {
                content.findings.append(.error("shape-payload", payload.path, "the Payload is not a readable compressed cpio archive: \(error)"))
            }
            return
        } catch {
            content.incomplete = true
            content.findings.append(.error("shape-payload", payload.path, "the Payload cannot be read: \(error)"))
            return
        }
        guard let bom, bom.hasUnseen, let bomFile,
              let entries = try? BomReader.read(try archive.readAll(bomFile, maxBytes: 256 << 20)) else { return }
        for path in bom.unseenPaths(in: entries).sorted() {
            content.findings.append(.error("shape-bom-mismatch", path, "the Bom lists '\(path)', which the Payload does not hold"))
        }
    }

    private static func compare(_ item: PayloadEntry, entry: ContentEntry, checksum: UInt32?, with record: BomIndex.Record?,
                                into content: inout PackageContent) {
        guard let record else {
            content.findings.append(.error("shape-bom-mismatch", item.path, "the Payload holds '\(item.path)', which the Bom does not list"))
            return
        }
        var differences: [String] = []
        let kindMatches: Bool = switch (record.kind, item.kind) {
        case (.file, .file), (.directory, .directory), (.symlink, .symlink), (.device, .characterDevice), (.device, .blockDevice): true
        case (.file, .hardlink): true
        default: false
        }
        if !kindMatches { differences.append("type (Bom: \(record.kind), Payload: \(entry.kind.name))") }
        if item.kind == .file, record.size != item.size { differences.append("size (Bom: \(record.size), Payload: \(item.size))") }
        if let checksum, record.kind == .file, record.checksum != checksum {
            differences.append("checksum (Bom: \(record.checksum), Payload: \(checksum))")
        }
        if item.kind == .symlink, record.linkTarget != item.linkTarget {
            differences.append("link target (Bom: \(record.linkTarget ?? "none"), Payload: \(item.linkTarget ?? "none"))")
        }
        if UInt32(record.mode) & 0o7777 != item.mode & 0o7777, item.kind != .symlink {
            differences.append("mode (Bom: \(String(record.mode & 0o7777, radix: 8)), Payload: \(String(item.mode & 0o7777, radix: 8)))")
        }
        if !differences.isEmpty {
            content.findings.append(.error("shape-bom-mismatch", item.path,
                "the Bom and the Payload disagree on " + differences.joined(separator: ", ") + "; rebuild the package"))
        }
    }

    private static func finding(_ error: Error, rule: String, entry: String) -> Finding {
        if let xar = error as? XarError {
            return .error(xar.rule ?? rule, xar.entry ?? entry, offset: xar.offset, "\(xar.message); \(xar.advice)")
        }
        return .error(rule, entry, "\(entry) cannot be read: \(error)")
    }
}

extension ContentEntry.Kind {
    /// The kind for a cpio entry.
    init(_ kind: PayloadEntry.Kind) {
        switch kind {
        case .file: self = .file
        case .directory: self = .directory
        case .symlink: self = .symlink
        case .hardlink: self = .hardlink
        case .fifo: self = .fifo
        case .characterDevice: self = .characterDevice
        case .blockDevice: self = .blockDevice
        case .socket: self = .socket
        case .unknown(let bits): self = .unknown("type \(String(bits, radix: 8))")
        }
    }
}
