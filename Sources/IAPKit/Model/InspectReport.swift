import IAPCore
import IAPRules
import XarKit

/// What `iapkg inspect` tells about a package, read from the TOC and the Bom without unpacking.
public struct InspectReport: Codable, Sendable {
    /// One entry of the content, as listed by the Bom (product) or the TOC (tree).
    public struct File: Codable, Sendable, Equatable {
        /// Path below the content root: "ContentInfo.plist", "Contents/a.png".
        public var path: String
        public var type: ContentEntry.Kind
        public var size: UInt64
        /// Permission bits in octal, e.g. "644".
        public var mode: String
        public var linkTarget: String?
    }

    public var schemaVersion = 1
    public var path: String
    public var shape: PackageParts.Shape
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
    public var fileCount: Int
    /// The .pkg file's size.
    public var packageSize: UInt64
    /// Bytes the xar heap stores (compressed).
    public var storedSize: UInt64
    /// Bytes of file content once unpacked.
    public var unpackedSize: UInt64
    public var files: [File]
    /// Problems noticed while reading (inspect is not a validator: run iapkg validate).
    public var notes: [Finding]
    /// The TOC's signatures and their certificate chains; absent when the package is unsigned.
    public var signatures: [XarSignatureCheck]? = nil
}
