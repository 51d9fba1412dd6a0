import XarKit

/// A package as validation left it, for a store that publishes straight from it: the archive, its
/// parts, its entries and each entry's SHA-256 as validation decoded it.
package struct ValidatedPackage {
    /// The package's xar archive.
    let archive: XarArchive
    /// Where its content is: a tree's files or a Payload's stream.
    let parts: PackageParts
    /// Its entries, in order.
    let entries: [ContentEntry]
    /// Each entry's SHA-256, as validation decoded it.
    let digests: [ContentDigest]
}

/// What a publish straight from the package did: the version's action, and the entries and file
/// bytes it holds (as unpack counts what it writes).
package struct DirectPublish {
    /// Installed, found installed, or replaced.
    var action: UnpackReport.Action
    /// The entries the version holds.
    var entries: Int
    /// The bytes of its files.
    var bytes: UInt64
}

extension StoredProduct {
    /// Nil: a store that has no direct path stages every package (the folder store, whose staging
    /// folder is on the same file system and becomes the version by one rename).
    package func publishDirectly(_ package: ValidatedPackage, as version: String, force: Bool, refusal: String) throws
        -> DirectPublish?
    { nil }
}
