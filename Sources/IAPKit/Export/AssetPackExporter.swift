import IAPRules
import IAPSystem

/// How `AssetPackExporter` writes each asset pack's manifest.
package struct AssetPackExportOptions: Sendable {
    /// The download policy (default on-demand: hosted content was fetched when the app asked for it).
    package var policy: AssetPackManifest.Policy
    /// For essential and prefetch: the installation events (default both).
    package var installationEvents: [AssetPackManifest.InstallationEvent]
    /// The platforms (default iOS, where hosted content was used).
    package var platforms: [String]

    package init(
        policy: AssetPackManifest.Policy = .onDemand,
        installationEvents: [AssetPackManifest.InstallationEvent] = AssetPackManifest.InstallationEvent.allCases,
        platforms: [String] = ["iOS"]
    ) {
        self.policy = policy
        self.installationEvents = installationEvents
        self.platforms = platforms
    }
}

/// One asset pack folder written.
package struct AssetPackExport: Codable, Sendable {
    /// What it came from: a package, a content folder, or a version folder of a store.
    package var source: String
    package var productIdentifier: String
    package var contentVersion: String
    package var assetPackID: String
    /// The folder holding ContentInfo.plist, Contents/ and the manifest.
    package var folder: String
    /// The manifest's path, for `ba-package`.
    package var manifest: String
    /// Files and bytes of content (the manifest not counted).
    package var files: Int
    package var bytes: UInt64
}

/// `export-asset-pack`: hosted content handed on to Background Assets. Each product becomes
/// `DIR/<assetPackID>/` holding `ContentInfo.plist` and `Contents/` as the app knew them, and the
/// `ba-package` manifest that selects them (`AssetPackManifest.fileName`).
package enum AssetPackExporter {
    /// Exports a package (validated and unpacked first), a content folder (validated first), a
    /// product folder of a version store (its current version) or a whole store (each product's
    /// current version), or the same in an object store (`s3://BUCKET/PREFIX[/<product>[/<version>]]`),
    /// into `destination`. Nothing is written for an input that is not valid;
    /// a folder already at a pack's place is never overwritten.
    package static func export(_ input: String, into destination: String, options: AssetPackExportOptions)
        throws(IAPKitError) -> [AssetPackExport]
    {
        try translatingErrors(path: input) {
            if FileSystem.status(destination) == nil { try FileSystem.makeDirectory(destination) }
            try removeLeftovers(in: destination)
            if let address = try StoreAddress.resolve(input) {
                return try exportStored(address, into: destination, options: options)
            }
            let status = try FileStatus.ofInput(input)
            guard status.isDirectory else { return [try exportPackage(input, into: destination, options: options)] }
            if FileSystem.linkStatus(input + "/ContentInfo.plist")?.kind == .regular {
                let report = try PackageValidator.validate(input)
                guard report.valid else { throw IAPKitError.invalid(path: input, findings: report.findings) }
                return [try write(input, source: input, into: destination, options: options, skipping: [])]
            }
            if let version = FileSystem.linkStatus(input + "/" + VersionStore.currentName).flatMap({ _ in
                try? FileSystem.readLink(input + "/" + VersionStore.currentName)
            }) {
                return [try exportVersion(input + "/" + version, into: destination, options: options)]
            }
            let listing = try VersionStoreCommands.list(input)
            let current = listing.products.compactMap { product in product.current.map { (product, $0) } }
            guard !current.isEmpty else {
                throw IAPKitError.refused(
                    "\(input) is neither a package, a content folder, a product folder of a version store (with a 'current' link) nor a version store holding one; give one of those"
                )
            }
            return try current.map { product, version in
                try exportVersion(
                    input + "/" + product.productIdentifier + "/" + version, into: destination, options: options)
            }
        }
    }

    /// Removes the private folders (`.iapkg-export-<pid>`, `.iapkg-read-<pid>-…`) that an export
    /// killed before its end left in `destination`: those of a process that no longer runs.
    private static func removeLeftovers(in destination: String) throws {
        let folder = try DirectoryHandle.open(destination)
        for name in try folder.names() {
            for prefix in [".iapkg-export-", ".iapkg-read-"] where name.hasPrefix(prefix) {
                let owner = name.dropFirst(prefix.count).prefix { $0 != "-" }
                if let pid = Int32(owner), !CurrentProcess.exists(pid) { try folder.removeTree(name) }
            }
        }
    }

    /// A package: validated and unpacked into a private store inside `destination`, then exported.
    private static func exportPackage(_ package: String, into destination: String, options: AssetPackExportOptions)
        throws -> AssetPackExport
    {
        let scratch = destination + "/.iapkg-export-\(CurrentProcess.id)"
        let parent = try DirectoryHandle.open(destination)
        try? parent.removeTree(ContentFolderScanner.baseName(of: scratch))
        defer { try? parent.removeTree(ContentFolderScanner.baseName(of: scratch)) }
        let report = try Unpacker.unpack(package, into: scratch, options: UnpackOptions())
        var export = try write(
            report.folder, source: package, into: destination, options: options, skipping: [DeliveryManifest.fileName])
        export.source = package
        return export
    }

    /// A store URL's versions: the one it names, its product's current one, or each product's current
    /// one; each read into a folder inside `destination` (checked against its manifest), exported,
    /// and removed.
    private static func exportStored(_ address: StoreAddress, into destination: String, options: AssetPackExportOptions)
        throws -> [AssetPackExport]
    {
        var versions: [(product: any StoredProduct, version: String)] = []
        if address.product != nil {
            versions = [try address.singleVersion()]
        } else {
            for product in try address.storage.listing().products {
                guard let current = product.current else { continue }
                versions.append((try address.storage.openProduct(product.productIdentifier, create: false), current))
            }
        }
        guard !versions.isEmpty else {
            throw IAPKitError.refused(
                "\(address.text) holds no product with a current version; give a store, a product (…/<product>) or a version (…/<product>/<version>) in it"
            )
        }
        return try versions.map { product, version in
            let readable = try product.readableFolder(of: version, scratch: destination)
            return try withExtendedLifetime(readable) {
                try write(
                    readable.path, source: product.location(of: version), into: destination, options: options,
                    skipping: [DeliveryManifest.fileName])
            }
        }
    }

    /// A version folder of a store (validated when it was installed), without its `manifest.json`.
    private static func exportVersion(_ folder: String, into destination: String, options: AssetPackExportOptions)
        throws -> AssetPackExport
    {
        try write(folder, source: folder, into: destination, options: options, skipping: [DeliveryManifest.fileName])
    }

    /// Copies the content root at `folder` to `destination/<assetPackID>/` with its manifest.
    private static func write(
        _ folder: String, source: String, into destination: String, options: AssetPackExportOptions,
        skipping: Set<String>
    ) throws -> AssetPackExport {
        let loaded = try ContentInfoLoader.load(folder + "/ContentInfo.plist")
        guard let info = loaded.info else { throw IAPKitError.invalid(path: source, findings: loaded.findings) }
        let id = AssetPackManifest.assetPackID(forProduct: info.productIdentifier)
        let manifest = AssetPackManifest(
            assetPackID: id, policy: options.policy, installationEvents: options.installationEvents,
            files: ["ContentInfo.plist"], directories: ["Contents"], platforms: options.platforms)
        let scan = try ContentFolderScanner.scan(folder, excludeJunk: true)
        let packFolder = destination + "/" + id
        try ContentFolderCopier.copy(
            scan, to: packFolder, skipping: skipping,
            extraFiles: [(AssetPackManifest.fileName, Array(manifest.json.utf8))])
        let contents = scan.contents.filter { $0.kind == .file && !skipping.contains($0.path) }
        return AssetPackExport(
            source: source, productIdentifier: info.productIdentifier, contentVersion: info.contentVersion.text,
            assetPackID: id, folder: packFolder, manifest: packFolder + "/" + AssetPackManifest.fileName,
            files: contents.count, bytes: contents.reduce(0) { $0 + $1.size })
    }
}
