import IAPRules
import IAPSystem
import XMLKit
import XarKit
import XcodeKit

/// Builds a content folder into a package: scan, check every rule, write atomically.
public enum PackageBuilder {
    /// Largest package Apple accepted for upload (2 GiB).
    public static let maxPackageBytes = PackageLimits.packageBytes

    /// Builds `folder`. Throws `IAPKitError.invalid` with every finding when the folder breaks a rule.
    public static func build(folder: String, options: BuildOptions) throws(IAPKitError) -> BuildReport {
        return try translatingErrors {
            return try buildUnchecked(folder: folder, options: options)
        }
    }

    private static func buildUnchecked(folder: String, options: BuildOptions) throws -> BuildReport {
        let started = monotonicSeconds()
        let (scan, projectFindings, ruleFindings) = try contentScan(folder, options: options)
        let (info, contentInfo, plistFindings) = try readContentInfo(scan)
        let findings = projectFindings + plistFindings + ruleFindings
        guard let info, !findings.contains(where: { $0.severity == .error }) else {
            throw IAPKitError.invalid(path: folder, findings: findings)
        }
        let output = try outputPath(
            options.output, folder: folder, default: "\(info.productIdentifier)-\(info.contentVersion.text).pkg")
        let times = EntryTimes(archive: options.sourceDateEpoch ?? Timestamps.now(), epoch: options.sourceDateEpoch)
        let progress = Progress(total: scan.totalFileBytes, report: options.progress)

        let target = try AtomicOutputFile(destination: output)
        let xarOptions = XarWriterOptions(
            creationTime: Timestamps.iso8601(times.archive), compressionLevel: options.zlibLevel)
        switch options.layout {
        case .product:
            // Five entries: the TOC fits a small reserved room, so the Payload is written only once.
            let xar = try XarWriter(
                directTo: target.file, reservedBytes: ProductArchiveWriter.reservedHeadBytes, options: xarOptions)
            try ProductArchiveWriter.write(
                scan, contentInfo: contentInfo, times: times, level: options.compressionLevel,
                compression: options.payloadCompression, to: xar, progress: progress)
            try xar.finishInPlace()
        case .tree:
            let xar = try XarWriter(temporaryDirectory: PathText.parent(of: output), options: xarOptions)
            try TreeArchiveWriter.write(scan, contentInfo: contentInfo, times: times, to: xar, progress: progress)
            try xar.finish(to: target.file)
        }
        let size = try target.file.size()
        guard size <= maxPackageBytes else {
            throw IAPKitError.invalid(
                path: folder,
                findings: [
                    Rule.sizePackageLimit.finding(
                        nil,
                        "the package would be \(size) bytes, over the 2 GiB (2,147,483,648 bytes) Apple accepts; split the content into several products"
                    )
                ])
        }
        try target.commit()
        return BuildReport(
            output: output, layout: options.layout, productIdentifier: info.productIdentifier,
            contentVersion: info.contentVersion.text, fileCount: scan.entries.count - 1,
            bytesIn: scan.totalFileBytes, bytesOut: size, seconds: monotonicSeconds() - started,
            excluded: scan.excluded, warnings: findings)
    }

    /// The folder's entries, or those an Xcode project's content target copies, with the findings
    /// about them (the project's, then the content rules').
    static func contentScan(_ path: String, options: BuildOptions) throws -> (
        ContentFolderScan, project: [Finding], rules: [Finding]
    ) {
        guard XcodeContentScanner.isProject(path) else {
            let scan = try ContentFolderScanner.scan(path, excludeJunk: true)
            return (scan, [], ContentRules.check(scan.contents))
        }
        do {
            let result = try XcodeContentScanner.scan(
                path, target: options.target, configuration: options.configuration)
            return (
                result.scan, result.findings,
                XcodeContentScanner.contentFindings(result, maxUnpackedBytes: PackageLimits.unpackedBytes)
            )
        } catch let error as XcodeProjectError {
            throw IAPKitError.invalid(path: path, findings: error.findings)
        }
    }

    /// Where the package goes: checked before any work, and never inside the content folder (the next
    /// build would find it there). The default name lands beside the folder when run from inside it.
    private static func outputPath(_ given: String?, folder: String, default name: String) throws -> String {
        let content = FileSystem.realPath(folder) ?? folder
        var output = given ?? name
        let parent = PathText.parent(of: output)
        guard let resolvedParent = FileSystem.realPath(parent) else {
            throw IAPKitError.system(
                SystemError(
                    "write \(output): the folder '\(parent)' does not exist; create it or choose another",
                    code: SystemError.Code.noSuchFile)
            )
        }
        if resolvedParent == content || resolvedParent.hasPrefix(content + "/") {
            guard given == nil else {
                throw IAPKitError.refused(
                    "\(output) would be inside the content folder \(folder), and the next build would package it; write it elsewhere"
                )
            }
            output = PathText.parent(of: content) + "/" + name
        }
        if FileSystem.status(output)?.isDirectory == true {
            throw IAPKitError.system(
                SystemError(
                    "write \(output): it is a folder; give a file name such as \(output)/\(name)",
                    code: SystemError.Code.isDirectory)
            )
        }
        return output
    }

    /// Reads the folder's ContentInfo.plist: what it says, the bytes to package (XML; a binary
    /// plist is rewritten as XML), and its findings.
    private static func readContentInfo(_ scan: ContentFolderScan) throws -> (ContentInfo?, [UInt8], [Finding]) {
        guard let source = scan.entries.first(where: { $0.entry.path == "ContentInfo.plist" && $0.entry.kind == .file })
        else {
            return (nil, [], [])
        }
        let loaded = try ContentInfoLoader.load(source.sourcePath)
        let (info, bytes, findings) = (loaded.info, loaded.bytes, loaded.findings)
        if let info, info.format == .binary, let (value, _) = try? PropertyListReader.read(bytes) {
            return (info, (try? PropertyListWriter.xml(value)) ?? bytes, findings)
        }
        return (info, bytes, findings)
    }

    static func monotonicSeconds() -> Double { MonotonicClock.seconds() }
}
