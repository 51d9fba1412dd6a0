import IAPRules
import IAPSystem
import XarKit

/// What `iapkg inspect` tells about a package, read from the TOC and the Bom without unpacking.
public struct InspectReport: Encodable, Sendable {
    /// One entry of the content, as listed by the Bom (product) or the TOC (tree).
    public struct File: Codable, Sendable, Equatable {
        /// Path below the content root: "ContentInfo.plist", "Contents/a.png".
        public var path: String
        public var type: EntryKind
        public var size: UInt64
        /// Permission bits in octal, e.g. "644".
        public var mode: String
        public var linkTarget: String?
    }

    public var schemaVersion = 1
    public var path: String
    public var shape: PackageShape
    public var productIdentifier: String?
    public var contentVersion: String?
    /// Extra ContentInfo.plist keys, kept.
    public var extraKeys: [String]
    /// NAME of NAME.pkg (product shape).
    public var componentName: String?
    /// TOC checksum algorithm (sha1, sha256…).
    public var checksumAlgorithm: String
    /// How content is compressed: "gzip" (the product Payload) or the xar encodings used (tree).
    public var compression: String
    /// Entries in `files`.
    public var fileCount: Int { listing.count }
    /// The .pkg file's size.
    public var packageSize: UInt64
    /// Bytes the xar heap stores (compressed).
    public var storedSize: UInt64
    /// Bytes of file content once unpacked.
    public var unpackedSize: UInt64 { listing.unpackedSize }
    /// Every entry, made from the read listing when asked for (JSON, the library): a package can list a million.
    public var files: [File] { listing.files }
    /// The entries as read, for walking without a value per entry (the text listing).
    package var listing = InspectListing()
    /// Problems noticed while reading (inspect is not a validator: run iapkg validate).
    public var notes: [Finding]
    /// The TOC's signatures and their certificate chains; absent when the package is unsigned.
    public var signatures: [SignatureCheck]? = nil

    private enum CodingKeys: String, CodingKey {
        case schemaVersion, path, shape, productIdentifier, contentVersion, extraKeys, componentName
        case checksumAlgorithm, compression, fileCount, packageSize, storedSize, unpackedSize, files, notes
        case signatures
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(schemaVersion, forKey: .schemaVersion)
        try container.encode(path, forKey: .path)
        try container.encode(shape, forKey: .shape)
        try container.encodeIfPresent(productIdentifier, forKey: .productIdentifier)
        try container.encodeIfPresent(contentVersion, forKey: .contentVersion)
        try container.encode(extraKeys, forKey: .extraKeys)
        try container.encodeIfPresent(componentName, forKey: .componentName)
        try container.encode(checksumAlgorithm, forKey: .checksumAlgorithm)
        try container.encode(compression, forKey: .compression)
        try container.encode(fileCount, forKey: .fileCount)
        try container.encode(packageSize, forKey: .packageSize)
        try container.encode(storedSize, forKey: .storedSize)
        try container.encode(unpackedSize, forKey: .unpackedSize)
        try container.encode(files, forKey: .files)
        try container.encode(notes, forKey: .notes)
        try container.encodeIfPresent(signatures, forKey: .signatures)
    }
}
