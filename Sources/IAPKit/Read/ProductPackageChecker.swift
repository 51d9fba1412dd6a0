import BomKit
import IAPCrypto
import IAPRules
import IAPSystem
import PayloadKit
import XMLKit
import XarKit

/// Checks a product archive: Distribution and PackageInfo readable and consistent, the Bom read,
/// and the Payload decoded entry by entry, sniffed, and held against the Bom.
enum ProductPackageChecker {
    /// Checks the package; with `hashing` (a publish to an object store) every file's SHA-256 is
    /// taken from the bytes decoded here, for its manifest.
    static func check(_ archive: XarArchive, parts: PackageParts, maxUnpackedBytes: UInt64, hashing: Bool = false)
        -> PackageContent
    {
        var content = PackageContent()
        let component = (parts.componentName ?? "?") + ".pkg"
        if let distribution = parts.distribution {
            do {
                let refs = try ProductArchiveDocuments.componentReferences(
                    inDistribution: try archive.readAll(distribution, maxBytes: XMLLimits.documentBytes))
                if !refs.contains(component) {
                    content.findings.append(
                        Rule.shapeDistribution.finding(
                            "Distribution",
                            "the Distribution does not reference #\(component) (it names \(refs.isEmpty ? "nothing" : refs.joined(separator: ", ")))"
                        ))
                }
                let others = Set(refs).subtracting([component]).sorted()
                if refs.contains(component) && !others.isEmpty {
                    content.findings.append(
                        Rule.shapeDistribution.finding(
                            "Distribution",
                            "the Distribution also references \(others.map { "#" + $0 }.joined(separator: ", ")); hosted content has a single component — rebuild the package"
                        ))
                }
            } catch {
                content.findings.append(finding(error, rule: Rule.shapeDistribution, entry: "Distribution"))
            }
        }
        if let packageInfo = parts.packageInfo {
            do {
                let summary = try ProductArchiveDocuments.readPackageInfo(
                    try archive.readAll(packageInfo, maxBytes: XMLLimits.documentBytes))
                if !summary.scripts.isEmpty {
                    content.findings.append(
                        Rule.shapePackageinfo.finding(
                            packageInfo.path,
                            "the PackageInfo declares install scripts (\(summary.scripts.joined(separator: ", "))); hosted content runs no scripts — rebuild the package without them"
                        ))
                }
            } catch {
                content.findings.append(finding(error, rule: Rule.shapePackageinfo, entry: packageInfo.path))
            }
        }
        var bom: BomIndex?
        if let bomFile = parts.bom {
            do {
                bom = BomIndex(try BomReader.read(try archive.readAll(bomFile, maxBytes: BomLimits.bomBytes)))
            } catch {
                content.findings.append(finding(error, rule: Rule.shapeBom, entry: bomFile.path))
            }
        }
        if parts.payload?.data == nil { content.incomplete = true }
        if let payload = parts.payload, let data = payload.data {
            let declared = bom?.declaredFileBytes ?? 0
            let offset = archive.heapOffset &+ data.offset
            if let bomb = DecompressionBombCheck.finding(
                entry: payload.path, declared: declared, stored: data.length, offset: offset)
                ?? UnpackedSizeLimit.finding(
                    total: declared, limit: maxUnpackedBytes, declared: true, entry: payload.path)
            {
                content.findings.append(bomb)
                content.incomplete = true
            } else {
                let headers = UInt64(bom?.count ?? 0) * CpioLimits.entryAllowance + CpioLimits.slackBytes
                let cap =
                    bom == nil ? min(data.length &* DecompressionBombCheck.maxRatio, 1 << 36) : declared &+ headers
                decodePayload(payload, archive: archive, bom: bom, cap: cap, hashing: hashing, into: &content)
            }
        }
        return content
    }

    private static func decodePayload(
        _ payload: XarFile, archive: XarArchive, bom original: BomIndex?, cap: UInt64, hashing: Bool,
        into content: inout PackageContent
    ) {
        var bom = original
        do {
            let stream = try archive.dataStream(for: payload)
            // Inflated on a second core while this one parses and judges the entries.
            let reader = try PayloadReader(maxDecodedBytes: cap, decodingAhead: true) { target in
                try stream.read(into: target)
            }
            // newc sends a hard-link set's data with its last link; the earlier ones say size 0.
            // Their Bom size and checksum are held against the link that carries the data.
            var deferred: [String: BomIndex.Record] = [:]
            while let item = try reader.nextEntry() {
                if item.path != "." && !PathText.startsWithDotSlash(item.path) {
                    content.findings.append(
                        Rule.shapePayloadPrefix.finding(
                            ContentEntry.reportedPath(ofStored: item.path),
                            "a Payload path must start with './' (found '\(item.path)'); the package was not made by pkgbuild or iapkg"
                        ))
                }
                // A hard link's own bytes are what an extractor writes through it: judge them too.
                let carriesData = item.kind == .file || item.kind == .hardlink
                var entry = ContentEntry(
                    rawPath: item.path, kind: ContentEntry.Kind(item.kind), permissions: item.mode & 0o7777,
                    size: carriesData ? item.size : 0, linkTarget: item.linkTarget,
                    hardlinkTarget: item.hardlinkTarget)
                var sniffer = ExecutableSniffer(fileSize: item.size)
                var checksum = BomChecksum()
                let isPlist = entry.components == ["ContentInfo.plist"]
                var plist: [UInt8] = []
                let hasher = hashing && carriesData ? ContentHasher(size: item.size) : nil
                if carriesData {
                    // Judged where the decoder left the bytes: no copy of the content.
                    while try reader.visitData({ piece in
                        sniffer.feed(piece)
                        checksum.update(piece)
                        hasher?.update(piece)
                        if isPlist && plist.count <= ContentInfo.maxBytes { plist.append(contentsOf: piece) }
                    }) > 0 {}
                    entry.sniff = sniffer.finish()
                    if isPlist { content.contentInfo = plist }
                }
                if bom != nil {
                    let record = bom?.take(item.path)
                    let sum =
                        item.kind == .file || (item.kind == .hardlink && item.size > 0) ? checksum.finalize() : nil
                    if let record, item.kind == .file, item.nlink > 1, item.size == 0, record.size > 0 {
                        deferred[item.path] = record
                        compare(item, entry: entry, checksum: nil, with: record, sizeDeferred: true, into: &content)
                    } else {
                        compare(item, entry: entry, checksum: sum, with: record, into: &content)
                    }
                    if item.kind == .hardlink, item.size > 0, let target = item.hardlinkTarget,
                        let first = deferred.removeValue(forKey: target)
                    {
                        var differences: [String] = []
                        if first.size != item.size {
                            differences.append("size (Bom: \(first.size), Payload: \(item.size))")
                        }
                        if let sum, first.checksum != sum {
                            differences.append("checksum (Bom: \(first.checksum), Payload: \(sum))")
                        }
                        if !differences.isEmpty {
                            content.findings.append(
                                Rule.shapeBomMismatch.finding(
                                    target,
                                    "the Bom and the data its hard link '\(item.path)' carries disagree on "
                                        + differences.joined(separator: ", ") + "; rebuild the package"))
                        }
                    }
                }
                content.entries.append(entry)
                if hashing { content.digests.append(ContentDigest(hasher)) }
            }
            for (path, record) in deferred.sorted(by: { $0.key < $1.key }) {
                content.findings.append(
                    Rule.shapeBomMismatch.finding(
                        path,
                        "the Bom and the Payload disagree on size (Bom: \(record.size), Payload: 0, and no later link of its hard-link set carries data); rebuild the package"
                    ))
            }
        } catch let error as XarError {
            content.incomplete = true
            content.findings.append(error.finding(entry: payload.path))
        } catch let error as PayloadError {
            content.findings.append(
                error.rule.finding(
                    payload.path, offset: packageOffset(of: error, in: payload, archive: archive), payloadProblem(error)
                ))
            return
        } catch {
            content.incomplete = true
            content.findings.append(Rule.shapePayload.finding(payload.path, "the Payload cannot be read: \(error)"))
            return
        }
        guard let bom, bom.hasUnseen else { return }
        for path in bom.unseenPaths {
            content.findings.append(
                Rule.shapeBomMismatch.finding(
                    ContentEntry.reportedPath(ofStored: path),
                    "the Bom lists '\(path)', which the Payload does not hold"))
        }
    }

    /// Reports where the Bom's record and the Payload's entry differ; `sizeDeferred` leaves size and
    /// checksum to the link that carries the data.
    private static func compare(
        _ item: PayloadEntry, entry: ContentEntry, checksum: UInt32?, with record: BomIndex.Record?,
        sizeDeferred: Bool = false, into content: inout PackageContent
    ) {
        guard let record else {
            content.findings.append(
                Rule.shapeBomMismatch.finding(entry, "the Payload holds '\(item.path)', which the Bom does not list"))
            return
        }
        var differences: [String] = []
        let kindMatches: Bool =
            switch (record.kind, item.kind) {
            case (.file, .file), (.directory, .directory), (.symlink, .symlink), (.device, .characterDevice),
                (.device, .blockDevice):
                true
            case (.file, .hardlink): true
            default: false
            }
        if !kindMatches { differences.append("type (Bom: \(record.kind), Payload: \(entry.kind.name))") }
        let sized = (item.kind == .file || (item.kind == .hardlink && item.size > 0)) && !sizeDeferred
        if sized, record.size != item.size { differences.append("size (Bom: \(record.size), Payload: \(item.size))") }
        if let checksum, record.kind == .file, record.checksum != checksum {
            differences.append("checksum (Bom: \(record.checksum), Payload: \(checksum))")
        }
        if item.kind == .symlink, record.linkTarget != item.linkTarget {
            differences.append(
                "link target (Bom: \(record.linkTarget ?? "none"), Payload: \(item.linkTarget ?? "none"))")
        }
        if UInt32(record.mode) & 0o7777 != item.mode & 0o7777, item.kind != .symlink {
            differences.append(
                "mode (Bom: \(String(record.mode & 0o7777, radix: 8)), Payload: \(String(item.mode & 0o7777, radix: 8)))"
            )
        }
        if !differences.isEmpty {
            content.findings.append(
                Rule.shapeBomMismatch.finding(
                    entry,
                    "the Bom and the Payload disagree on " + differences.joined(separator: ", ")
                        + "; rebuild the package"))
        }
    }

    /// What a Payload that failed to decode is told, by the rule its error breaks.
    private static func payloadProblem(_ error: PayloadError) -> String {
        switch error {
        case .invalidEntryName(let headerOffset, let reason):
            "the Payload entry whose header starts at decoded byte \(headerOffset) is invalid: \(reason); names must be UTF-8 — rename it and rebuild (entries after it were not checked)"
        case .decompressionBomb:
            "the Payload decodes to more than its Bom declares (\(error)); a decompression bomb — refuse the package"
        case .malformedPbzx:
            "the Payload's pbzx framing is broken: \(error)"
        default:
            "the Payload is not a readable compressed cpio archive: \(error)"
        }
    }

    /// Where in the package file a Payload fault lies: the Payload's own offset, when the error names
    /// one and the Payload is stored as is in the heap (as pkgbuild and iapkg store it).
    static func packageOffset(of error: PayloadError, in payload: XarFile, archive: XarArchive) -> UInt64? {
        guard let offset = error.payloadOffset, let data = payload.data, data.encoding == .stored else { return nil }
        return archive.heapOffset &+ data.offset &+ offset
    }

    private static func finding(_ error: Error, rule: Rule, entry: String) -> Finding {
        if let xar = error as? XarError { return xar.finding(entry: entry, rule: rule) }
        return rule.finding(entry, "\(entry) cannot be read: \(error)")
    }
}
