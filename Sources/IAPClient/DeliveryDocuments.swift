#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `<product>/current.json`: which version a server serves now, and the SHA-256 of its manifest.
public struct CurrentPointer: Codable, Sendable, Equatable {
    /// The SHA-256 (lowercase hex) of the version's `manifest.json`.
    public var manifestSHA256: String
    /// The product the pointer belongs to.
    public var productIdentifier: String
    /// The document's schema version (1).
    public var schemaVersion: Int
    /// The current version (ContentVersion).
    public var version: String
}

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
    }

    /// One symlink, which the client recreates (servers never follow links).
    public struct Symlink: Codable, Sendable, Equatable {
        /// The link's path relative to the version folder.
        public var path: String
        /// What the link points to, relative to its folder.
        public var target: String
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
}

/// The documents a server publishes, decoded strictly.
enum DeliveryDocuments {
    /// Largest `current.json` read: it holds four short fields.
    static let pointerLimit = 64 * 1024
    /// Largest `manifest.json` read: about 150 bytes a file, so room for a million files.
    static let manifestLimit = 256 * 1024 * 1024

    /// `current.json` from `data`, for `product`.
    static func pointer(_ data: Data, product: String) throws(FetchError) -> CurrentPointer {
        let pointer: CurrentPointer
        do {
            pointer = try JSONDecoder().decode(CurrentPointer.self, from: data)
        } catch {
            throw .refused("current.json", "it is not the store's pointer document (\(error))")
        }
        guard pointer.schemaVersion == 1 else {
            throw .refused("current.json", "schema version \(pointer.schemaVersion) is not 1; update the client")
        }
        guard pointer.productIdentifier == product else {
            throw .refused("current.json", "it names product '\(pointer.productIdentifier)', not '\(product)'")
        }
        guard ManifestCheck.isVersionName(pointer.version) else {
            throw .refused("current.json", "version '\(pointer.version)' is not a ContentVersion (digits and dots)")
        }
        guard ManifestCheck.isSHA256(pointer.manifestSHA256) else {
            throw .refused("current.json", "manifestSHA256 is not 64 lowercase hex digits")
        }
        return pointer
    }

    /// `manifest.json` from `data`, which must hash to the pointer's SHA-256 and describe its version.
    static func manifest(_ data: Data, for pointer: CurrentPointer) throws(FetchError) -> VersionManifest {
        let name = "\(pointer.version)/manifest.json"
        guard Digests.sha256Hex(data) == pointer.manifestSHA256 else {
            throw .refused(name, "its SHA-256 is not the one current.json gives (the manifest was changed or cut)")
        }
        let manifest: VersionManifest
        do {
            manifest = try JSONDecoder().decode(VersionManifest.self, from: data)
        } catch {
            throw .refused(name, "it is not a version manifest (\(error))")
        }
        guard manifest.schemaVersion == 1 else {
            throw .refused(name, "schema version \(manifest.schemaVersion) is not 1; update the client")
        }
        guard manifest.productIdentifier == pointer.productIdentifier, manifest.version == pointer.version else {
            throw .refused(
                name,
                "it describes \(manifest.productIdentifier) \(manifest.version), not the version current.json names")
        }
        try ManifestCheck.check(manifest, name: name)
        return manifest
    }
}
