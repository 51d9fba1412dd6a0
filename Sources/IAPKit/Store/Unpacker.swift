import IAPRules
import IAPSystem
import PayloadKit
import XarKit

/// Unpacks untrusted packages into `ROOT/<product>/<version>/` and moves `current` atomically.
///
/// A package is validated completely first (same rules as `validate`); nothing is written for an
/// invalid one. Content goes into a private staging folder beside the versions, is flushed to disk,
/// and appears under its version name by one rename. A run killed at any moment leaves every earlier
/// version and `current` as they were; the next run removes its leftovers. A process whose writes can
/// pass a file-size limit (`ulimit -f`) should ignore `SIGXFSZ` (`FileSystem.reportFileSizeLimitAsError()`,
/// as `iapkg` does at start), so that such a write fails with a clear error instead of killing it.
/// Into an object store the files go straight from the package, each held to the SHA-256 validation
/// took of it (`StoredProduct.publishDirectly`); only a package with hard links is staged on disk first.
public enum Unpacker {
    /// Unpacks `package` into the store at `root`.
    public static func unpack(_ package: String, into root: String, options: UnpackOptions) throws(IAPKitError)
        -> UnpackReport
    {
        var validation: ValidationReport?
        return try unpack(package, into: root, options: options, validation: &validation)
    }

    /// Unpacks `package`, leaving the complete validation report in `validation` once validation ran
    /// (whether or not the package was then installed), for a caller that keeps reports.
    public static func unpack(
        _ package: String, into root: String, options: UnpackOptions,
        validation: inout ValidationReport?
    ) throws(IAPKitError) -> UnpackReport {
        return try translatingErrors(path: package) {
            return try unpackUnchecked(package, into: root, options: options, validation: &validation)
        }
    }

    private static func unpackUnchecked(
        _ package: String, into rootPath: String, options: UnpackOptions,
        validation: inout ValidationReport?
    ) throws -> UnpackReport {
        let started = MonotonicClock.seconds()
        let status = try FileStatus.ofInput(package)
        guard status.isRegularFile else {
            throw IAPKitError.system(SystemError("open", path: package, code: SystemError.Code.isDirectory))
        }
        var outcome = try PackageValidator.validatePackage(
            package, size: status.size,
            options: ValidationOptions(
                strict: options.strict, productIdentifier: options.productIdentifier,
                maxUnpackedSize: options.maxUnpackedSize),
            keepArchive: true, hashingContent: StoreLocation(rootPath).isObjectStore)
        validation = outcome.report
        HeapTuning.releaseFreeMemory()  // validation's tables are gone: the writing starts from less
        guard outcome.report.valid, let info = outcome.info, outcome.archive != nil, let parts = outcome.parts else {
            throw IAPKitError.invalid(path: package, findings: outcome.report.findings)
        }
        let warnings = outcome.report.findings.filter { $0.severity == .warning }
        let product = try StoreLocation(rootPath).open().openProduct(info.productIdentifier, create: true)
        try product.removeStaleWork()

        let current = try product.current()
        let downgrade = current.map { info.contentVersion < $0 } ?? false
        // One version whatever its spelling: `3.50.0` is the installed `3.50`.
        let installedName = try product.installedName(of: info.contentVersion)
        let installed = installedName != nil
        let version = installedName ?? info.contentVersion.text
        // A lower version not installed yet is refused before anything is written; one already
        // there is compared first, so re-running the same unpack stays a no-op.
        if downgrade && !options.allowDowngrade && !installed, let current {
            throw IAPKitError.refused(
                "\(package): version \(version) is lower than the current \(current.text) of \(info.productIdentifier); pass --allow-downgrade to install it anyway"
            )
        }
        let spelled = version == info.contentVersion.text ? "" : " as \(version)"
        let refusal =
            "\(info.productIdentifier) \(info.contentVersion.text) is already installed\(spelled) with different content; \(options.replaceAdvice)"
        let action: UnpackReport.Action
        let written: (files: Int, bytes: UInt64)
        if let archive = outcome.archive,
            let published = try product.publishDirectly(
                ValidatedPackage(archive: archive, parts: parts, entries: outcome.entries, digests: outcome.digests),
                as: version, force: options.force, refusal: refusal)
        {
            (action, written) = (published.action, (published.entries, published.bytes))
        } else {
            let unpackedBytes = outcome.entries.reduce(UInt64(0)) { $0 &+ ($1.kind == .file ? $1.size : 0) }
            let staging = try product.makeStaging(bytes: unpackedBytes, entries: outcome.entries.count)
            // The archive's TOC model and the entry list go as soon as the content is written: the
            // manifest that follows must not have them beside it (tens of MB at 100,000 entries).
            let writer = try writeContent(taking: &outcome, parts: parts, into: staging.folder)
            written = (files: writer.entriesWritten, bytes: writer.bytesWritten)
            let items = writer.manifestItems()
            staging.files = items.compactMap { $0.isFile ? ($0.path, $0.size) : nil }
            try DeliveryManifest.write(
                productIdentifier: info.productIdentifier, version: version, items: items, into: staging.folder)
            try staging.folder.sync()
            action = try product.commit(staging, as: version, force: options.force, refusal: refusal)
        }

        if options.activate {
            try product.activate(version, pinning: false) { current, retention in
                try current?.text != version
                    && mayActivate(
                        info.contentVersion, current: current, retention: retention, in: product,
                        fresh: action != .alreadyInstalled, options: options)
            }
        }
        var removed: [String] = []
        if let keep = options.keep {  // after activating: the current version is never removed
            removed = try product.prune(keep: keep, grace: options.keepFor)
        }
        return UnpackReport(
            path: package, productIdentifier: info.productIdentifier, version: version, action: action,
            folder: product.location(of: version), current: try product.current()?.text,
            removed: removed, files: written.files, bytes: written.bytes,
            seconds: MonotonicClock.seconds() - started,
            warnings: warnings)
    }

    /// Whether a newly installed `version` may become current, given the `current` version and the
    /// `retention` state read with it: not a downgrade (unless allowed and asked for), and, while
    /// an operator's rollback is pinned, only a version newer than every other installed one. A
    /// version that was already installed (`fresh` false) moves `current` only with
    /// `activateInstalled`, and never against a pin.
    private static func mayActivate(
        _ version: ContentVersion, current: ContentVersion?, retention: VersionRetention,
        in product: any StoredProduct, fresh: Bool, options: UnpackOptions
    ) throws -> Bool {
        let downgrade = current.map { version < $0 } ?? false
        if downgrade && !(options.allowDowngrade && options.activateLowerVersions) { return false }
        if !fresh && !options.activateInstalled { return false }
        guard let pinned = retention.pinned, current?.text == pinned else { return true }
        return try fresh && product.versions().allSatisfy { $0 == version || $0 < version }
    }

    /// Writes every content entry of a validated package into `staging`, decoding the data again;
    /// the outcome's archive and entries are moved out and go as this returns, before the caller
    /// asks the writer for its manifest.
    private static func writeContent(
        taking outcome: inout PackageValidator.PackageOutcome, parts: PackageParts, into staging: DirectoryHandle
    ) throws -> StagingWriter {
        guard let archive = outcome.archive else { throw IAPKitError.failed("the package was not kept open") }
        let entries = outcome.entries
        outcome.archive = nil
        outcome.entries = []
        return try writeContent(entries, archive: archive, parts: parts, into: staging)
    }

    /// Writes every content entry of a validated package into `staging`, decoding the data again;
    /// the writer returned is finished and synced.
    private static func writeContent(
        _ entries: [ContentEntry], archive: XarArchive, parts: PackageParts,
        into staging: DirectoryHandle
    ) throws -> StagingWriter {
        let writer = StagingWriter(root: staging, entryCount: entries.count)
        try PackageContentReading.forEachEntry(entries, archive: archive, parts: parts) { index, read in
            try writer.write(entries[index], read: read)
        }
        try writer.finish(allEntries: entries)
        try writer.sync()
        return writer
    }
}
