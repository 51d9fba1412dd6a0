#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `<product>/<version>/manifest.json`: every file and symlink of one version.
public struct VersionManifest: Codable, Sendable, Equatable {
    /// One file: its path in the version folder, size, SHA-256 and permission bits (octal text).
    public struct File: Codable, Sendable, Equatable {
        /// Permission bits as octal text (`"0644"`).
        public var mode: String
        /// The path relative to the version folder (`ContentInfo.plist`, `Contents/…`).
        public var path: String
        /// The SHA-256 of the file's bytes (lowercase hex).
        public var sha256: String
        /// The size in bytes.
        public var size: UInt64

        /// The file at `path` of `size` bytes hashing to `sha256`, with permission bits `mode`.
        package init(mode: String, path: String, sha256: String, size: UInt64) {
            self.mode = mode
            self.path = path
            self.sha256 = sha256
            self.size = size
        }
    }

    /// One symlink, which the client recreates (servers never follow links).
    public struct Symlink: Codable, Sendable, Equatable {
        /// The link's path relative to the version folder.
        public var path: String
        /// What the link points to, relative to its folder.
        public var target: String

        /// The symlink at `path` to `target`.
        package init(path: String, target: String) {
            self.path = path
            self.target = target
        }
    }

    /// The number of files.
    public var fileCount: Int
    /// Every file, sorted by path.
    public var files: [File]
    /// The product.
    public var productIdentifier: String
    /// The document's schema version (1).
    public var schemaVersion: Int
    /// Every symlink, sorted by path.
    public var symlinks: [Symlink]
    /// The sum of the files' sizes.
    public var totalBytes: UInt64
    /// The version (ContentVersion).
    public var version: String

    /// A manifest with every field given.
    package init(
        fileCount: Int, files: [File], productIdentifier: String, schemaVersion: Int, symlinks: [Symlink],
        totalBytes: UInt64, version: String
    ) {
        self.fileCount = fileCount
        self.files = files
        self.productIdentifier = productIdentifier
        self.schemaVersion = schemaVersion
        self.symlinks = symlinks
        self.totalBytes = totalBytes
        self.version = version
    }

    /// The manifest a store holds for `productIdentifier` `version`, read from `bytes`: it must
    /// describe that product and version and meet every rule of ``ManifestRules``.
    package static func decode(_ bytes: [UInt8], productIdentifier: String, version: String)
        throws(DeliveryDocumentError) -> VersionManifest
    {
        let pointer = CurrentPointer(productIdentifier: productIdentifier, version: version, manifestSHA256: "")
        return try decode(Data(bytes), for: pointer)
    }

    /// The manifest in `data`, which must describe `pointer`'s product and version and meet every
    /// rule of ``ManifestRules`` with `limit` as the largest total. The caller checks first that
    /// `data` hashes to `pointer.manifestSHA256`.
    package static func decode(
        _ data: Data, for pointer: CurrentPointer, limit: UInt64 = ManifestRules.defaultTotalLimit
    ) throws(DeliveryDocumentError) -> VersionManifest {
        let name = "\(pointer.version)/\(DeliveryDocument.manifestName)"
        let manifest: VersionManifest
        do {
            manifest = try JSONDecoder().decode(VersionManifest.self, from: data)
        } catch {
            throw DeliveryDocumentError(name, "it is not a version manifest (\(error))")
        }
        guard manifest.schemaVersion == DeliveryDocument.schemaVersion else {
            throw DeliveryDocumentError(name, "schema version \(manifest.schemaVersion) is not 1; update the client")
        }
        guard manifest.productIdentifier == pointer.productIdentifier, manifest.version == pointer.version else {
            throw DeliveryDocumentError(
                name,
                "it describes \(manifest.productIdentifier) \(manifest.version), not the version current.json names")
        }
        try ManifestRules.check(manifest, name: name, limit: limit)
        return manifest
    }
}
