/// The caps of a content package as a whole (Apple's rules, PackageFormat.md §6) and of its entry
/// names; each format's own caps live with the format (`XarLimits`, `BomLimits`, `CpioLimits`,
/// `XMLLimits`), and a test holds the ones that must agree with these equal.
package enum PackageLimits {
    /// Largest package Apple accepts for upload: 2 GiB (2,147,483,648 bytes).
    package static let packageBytes: UInt64 = 2_147_483_648
    /// Above this a package gets a warning (Apple did not say which "GB"): 2,000,000,000 bytes.
    package static let packageWarningBytes: UInt64 = 2_000_000_000
    /// Largest unpacked total accepted by default: 2 GiB, since a device must store what it unpacks.
    package static let unpackedBytes: UInt64 = 2_147_483_648
    /// Largest ContentInfo.plist: 1 MiB.
    package static let contentInfoBytes = 1 << 20
    /// Longest entry path, in UTF-8 bytes, not counting a payload's leading "./".
    package static let pathBytes = 1024
    /// Longest path component, in UTF-8 bytes.
    package static let componentBytes = 255
    /// Symlinks followed while resolving one path before it is called a loop (the kernel's ELOOP).
    package static let symlinkHops = 40
    /// Most entries a content folder may hold before the walk gives up.
    package static let folderEntries = 2_000_000
}
