import IAPCrypto
import IAPRules
import IAPSystem
import XarKit
import XcodeKit

/// Validates a `.pkg` (either shape) or a content folder against every rule of PackageFormat.md §6.
/// Every finding is collected; the input is never trusted, decoded bytes are bounded.
public enum PackageValidator {
    /// Validates `path`. Throws only when the input cannot be read at all (missing, unreadable): exit 2.
    public static func validate(_ path: String, options: ValidationOptions = .init()) throws(IAPKitError)
        -> ValidationReport
    {
        let status = try FileStatus.ofInput(path)
        if status.isDirectory {
            if XcodeContentScanner.isProject(path) { return try validateProject(path, options: options) }
            return try validateFolder(path, options: options)
        }
        return try validatePackage(path, size: status.size, options: options).report
    }

    /// The outcome of validating a package: the report, plus what unpack needs to write it.
    struct PackageOutcome {
        var report: ValidationReport
        var info: ContentInfo?
        var parts: PackageParts?
        var archive: XarArchive?
        var entries: [ContentEntry]
        /// With `hashingContent`, each entry's content digest (in `entries`' order); else empty.
        var digests: [ContentDigest] = []
    }

    /// Validates a package; with `keepArchive` (unpack) the opened archive is returned for writing,
    /// otherwise its TOC model (tens of MB for 100,000 entries) is released before the rules run.
    /// With `hashingContent` (a publish to an object store) each file's SHA-256 is taken as it is decoded.
    static func validatePackage(
        _ path: String, size: UInt64, options: ValidationOptions,
        keepArchive: Bool = false, hashingContent: Bool = false
    ) throws(IAPKitError) -> PackageOutcome {
        var findings = FindingLog(sizeFindings(path, size: size, options: options))
        // The archive lives only inside this call unless kept: its model is freed before the rules.
        let checked:
            (parts: PackageParts, content: PackageContent, archive: XarArchive?, signatures: [XarSignatureCheck])
        do {
            checked = try checkContainer(
                path, keepArchive: keepArchive, hashing: hashingContent, maxUnpackedBytes: options.maxUnpackedSize,
                findings: &findings)
        } catch let error as XarError {
            guard error.rule != nil else {
                throw .system(SystemError("read", path: path, code: SystemError.Code.io))
            }
            findings.report(error.finding())
            return PackageOutcome(
                report: ValidationReport(
                    path: path, shape: nil, info: nil, findings: findings.findings, strict: options.strict),
                info: nil, parts: nil, archive: nil, entries: [])
        } catch {
            throw .failed("\(error)")
        }
        let (parts, content, kept, signatureChecks) = checked
        var signatures = signatureChecks
        findings.report(SignatureTrust.judge(&signatures, anchors: options.trustAnchors))
        var info: ContentInfo?
        if let plist = content.contentInfo {
            let (read, plistFindings) = ContentInfo.read(plist)
            info = read
            findings.report(plistFindings)
        }
        // An unpacked size already refused from the declared sizes, before decoding, is not judged
        // again from the decoded entries: one finding for one fault.
        let sizeJudged = findings.contains(Rule.sizeUnpackedLimit)
        var contentFindings = ContentRules.check(
            content.entries, maxUnpackedBytes: sizeJudged ? .max : options.maxUnpackedSize)
        if content.incomplete {
            // The content could not be read to its end: what seems missing may only be unread.
            let unreliable: Set<String> = [
                Rule.shapeMissingContentinfo.id, Rule.shapeMissingContents.id, Rule.hygieneEmptyContents.id,
            ]
            contentFindings.removeAll { unreliable.contains($0.rule) }
        }
        findings.report(contentFindings)
        findings.report(expectationFindings(info, options: options))
        if info == nil && !findings.hasErrors {
            findings.report(
                Rule.plistSyntax.finding(
                    "ContentInfo.plist",
                    "ContentInfo.plist could not be read from the package, so the product and version are unknown; rebuild the package with iapkg build"
                ))
        }
        StoredNames.annotate(&findings, entries: content.entries)
        let report = ValidationReport(
            path: path, shape: parts.shape == .product ? .product : .tree, info: info,
            findings: findings.findings, strict: options.strict, signatures: signatures.isEmpty ? nil : signatures)
        return PackageOutcome(
            report: report, info: info, parts: parts, archive: kept, entries: content.entries, digests: content.digests)
    }

    /// Opens the container, finds its shape and checks its content (decoding every file).
    private static func checkContainer(
        _ path: String, keepArchive: Bool, hashing: Bool, maxUnpackedBytes: UInt64,
        findings: inout FindingLog
    ) throws -> (PackageParts, PackageContent, XarArchive?, [XarSignatureCheck]) {
        let archive = try XarArchive.open(path: path)
        findings.report(archive.findings)
        let (parts, shapeFindings) = PackageParts.detect(archive.toc)
        findings.report(shapeFindings)
        let content: PackageContent =
            switch parts.shape {
            case .product:
                ProductPackageChecker.check(archive, parts: parts, maxUnpackedBytes: maxUnpackedBytes, hashing: hashing)
            case .tree: TreePackageChecker.check(archive, maxUnpackedBytes: maxUnpackedBytes, hashing: hashing)
            }
        // A stream that refuses to start meets what the open reported: the log keeps one finding.
        findings.report(content.findings)
        return (parts, content, keepArchive ? archive : nil, archive.signatureChecks)
    }

    static func validateFolder(_ path: String, options: ValidationOptions) throws(IAPKitError) -> ValidationReport {
        let scan: ContentFolderScan
        do { scan = try ContentFolderScanner.scan(path, excludeJunk: false) } catch {
            throw .system(error as? SystemError ?? SystemError("read folder", path: path, code: SystemError.Code.io))
        }
        var findings = FindingLog()
        var info: ContentInfo?
        if let plist = scan.entries.first(where: { $0.entry.path == "ContentInfo.plist" && $0.entry.kind == .file }) {
            let loaded = try ContentInfoLoader.load(plist.sourcePath)
            info = loaded.info
            findings.report(loaded.findings)
        }
        findings.report(ContentRules.check(scan.contents, maxUnpackedBytes: options.maxUnpackedSize))
        findings.report(expectationFindings(info, options: options))
        return ValidationReport(
            path: path, shape: .folder, info: info, findings: findings.findings, strict: options.strict)
    }

    /// Validates what an Xcode project's content target would build: the project's findings, then
    /// every rule a content folder meets.
    static func validateProject(_ path: String, options: ValidationOptions) throws(IAPKitError) -> ValidationReport {
        let result: XcodeContentScanner.Result
        do {
            result = try XcodeContentScanner.scan(path, target: options.target, configuration: options.configuration)
        } catch let error as XcodeProjectError {
            return ValidationReport(
                path: path, shape: .project, info: nil, findings: error.findings, strict: options.strict)
        } catch {
            throw .system(error as? SystemError ?? SystemError("read project", path: path, code: SystemError.Code.io))
        }
        var findings = FindingLog(result.findings)
        var info: ContentInfo?
        if let plist = result.scan.entries.first(where: {
            $0.entry.path == "ContentInfo.plist" && $0.entry.kind == .file
        }) {
            let loaded = try ContentInfoLoader.load(plist.sourcePath)
            info = loaded.info
            findings.report(loaded.findings)
        }
        findings.report(XcodeContentScanner.contentFindings(result, maxUnpackedBytes: options.maxUnpackedSize))
        findings.report(expectationFindings(info, options: options))
        return ValidationReport(
            path: path, shape: .project, info: info, findings: findings.findings, strict: options.strict)
    }

    private static func sizeFindings(_ path: String, size: UInt64, options: ValidationOptions) -> [Finding] {
        var findings: [Finding] = []
        if size > options.maxSize {
            findings.append(
                Rule.sizePackageLimit.finding(
                    nil,
                    "the package is \(size) bytes, over the \(options.maxSize)-byte limit (Apple's cap is 2 GiB = 2,147,483,648 bytes); split the content"
                ))
        } else if size > PackageLimits.packageWarningBytes && options.maxSize == PackageLimits.packageBytes {
            findings.append(
                Rule.sizePackageNearLimit.finding(
                    nil,
                    "the package is \(size) bytes, above 2,000,000,000: Apple's \"2 GB\" may mean decimal gigabytes"))
        }
        if !path.lowercased().hasSuffix(".pkg") {
            findings.append(
                Rule.hygieneExtension.finding(
                    nil, "the file name does not end in .pkg, which App Store uploads required"))
        }
        return findings
    }

    private static func expectationFindings(_ info: ContentInfo?, options: ValidationOptions) -> [Finding] {
        guard let info else { return [] }
        var findings: [Finding] = []
        if let expected = options.productIdentifier, expected != info.productIdentifier {
            findings.append(
                Rule.plistProductIdMismatch.finding(
                    "ContentInfo.plist",
                    "IAPProductIdentifier is '\(info.productIdentifier)', but '\(expected)' was expected"))
        }
        if let floor = options.newerThan, !(info.contentVersion > floor) {
            findings.append(
                Rule.plistVersionNotNewer.finding(
                    "ContentInfo.plist",
                    "ContentVersion \(info.contentVersion) is not greater than \(floor); raise it with iapkg bump"))
        }
        return findings
    }
}

/// What a shape checker found inside a package: the content entries, the plist's bytes, findings.
struct PackageContent {
    var entries: [ContentEntry] = []
    var contentInfo: [UInt8]?
    var findings: [Finding] = []
    /// The content could not be decoded to its end (a broken Payload, truncated data).
    var incomplete = false
    /// When hashing, one per entry (in `entries`' order): the SHA-256 of the bytes it carries.
    var digests: [ContentDigest] = []
}
