/// Apple's marker extensions on a StoreKit signing chain (PackageFormat.md §9 and Apple's App Store
/// Server Library): dotted object identifiers, present on the leaf and on the intermediate.
enum AppleMarkers {
    /// The leaf's marker: a certificate for signing App Store receipts and transactions.
    static let leaf = "1.2.840.113635.100.6.11.1"
    /// The intermediate's marker: Apple Worldwide Developer Relations.
    static let intermediate = "1.2.840.113635.100.6.2.1"
}
