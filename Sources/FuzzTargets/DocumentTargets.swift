internal import IAPKit

/// The XML and property-list documents a package carries.
enum DocumentTargets {
    /// ContentInfo.plist, XML or binary, through the reader validate uses (its rules included).
    static func readContentInfo(_ input: [UInt8]) {
        _ = ContentInfo.read(input)
    }

    /// The same bytes as a Distribution and as a PackageInfo (each parser refuses the other's root).
    static func readProductDocuments(_ input: [UInt8]) {
        _ = try? ProductArchiveDocuments.componentReferences(inDistribution: input)
        _ = try? ProductArchiveDocuments.readPackageInfo(input)
    }
}
