import IAPRules
import IAPSystem

/// Which of the two package shapes to write (PackageFormat.md §5).
public enum PackageLayout: String, Sendable, Codable, CaseIterable {
    /// A product archive, as `productbuild --content` makes: Distribution + NAME.pkg/{Bom,Payload,PackageInfo}.
    case product
    /// A bare tree: ContentInfo.plist and Contents/ as xar entries.
    case tree
}

/// How a product archive's Payload is compressed.
public enum PayloadCompressionChoice: String, Sendable, Codable, CaseIterable {
    /// gzip members, one per MiB of cpio, on every core (what pkgbuild writes by default).
    case gzip
    /// pbzx: 16 MiB chunks of xz (what `pkgbuild --compression latest` writes).
    case pbzx
}

/// How `PackageBuilder` builds.
public struct BuildOptions: Sendable {
    public var layout: PackageLayout
    /// Output path; nil means `<product-id>-<version>.pkg` in the current folder.
    public var output: String?
    /// Seconds since 1970 stamped on every entry and the archive; nil uses file times and now.
    public var sourceDateEpoch: Int64?
    /// Compression level 1–12 on libdeflate's scale (7, the default, is as small as zlib's 6).
    public var compressionLevel: Int32
    /// For an Xcode project: the In-App Purchase Content target to build (needed when it has several).
    public var target: String?
    /// For an Xcode project: the build configuration read (default: the target's default, Release).
    public var configuration: String?
    /// How the Payload of a product archive is compressed (gzip by default).
    public var payloadCompression: PayloadCompressionChoice = .gzip
    /// Called with (bytes done, bytes total) as content is written.
    public var progress: (@Sendable (UInt64, UInt64) -> Void)?

    public init(
        layout: PackageLayout = .product, output: String? = nil, sourceDateEpoch: Int64? = nil,
        compressionLevel: Int32 = 7, progress: (@Sendable (UInt64, UInt64) -> Void)? = nil
    ) {
        self.layout = layout
        self.output = output
        self.sourceDateEpoch = sourceDateEpoch
        self.compressionLevel = compressionLevel
        self.progress = progress
    }

    /// The matching zlib level (1–9) for the xar entries zlib encodes.
    var zlibLevel: Int32 { max(1, min(9, compressionLevel - 1)) }
}

/// What a build wrote.
public struct BuildReport: Codable, Sendable {
    public var schemaVersion = 1
    public var output: String
    public var layout: PackageLayout
    public var productIdentifier: String
    public var contentVersion: String
    /// Entries packaged (files, folders and links, the content root excluded).
    public var fileCount: Int
    /// Bytes of file content read.
    public var bytesIn: UInt64
    /// Size of the package written.
    public var bytesOut: UInt64
    public var seconds: Double
    /// Clutter left out, as paths below the content folder.
    public var excluded: [String]
    /// Warnings the folder raised (the build went ahead).
    public var warnings: [Finding]
}
