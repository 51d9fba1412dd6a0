import IAPCore
import IAPRules

/// The rules every content tree is held to (PackageFormat.md §6: shape, entries, code, links, hygiene),
/// whichever source the entries came from. Build, validate and unpack all call this one engine.
package enum ContentRules {
    /// The default cap on unpacked bytes: Apple's 2 GiB, since a device must store what it unpacks.
    package static let defaultMaxUnpackedBytes = Limits.unpackedBytes

    /// Every finding for `entries`. The content root itself (no components) may be among them.
    /// Files (and hard links, unpacked as copies) adding up to more than `maxUnpackedBytes` are an error.
    package static func check(_ entries: [ContentEntry], maxUnpackedBytes: UInt64 = defaultMaxUnpackedBytes)
        -> [Finding]
    {
        var findings: [Finding] = []
        let items = EntryList(entries)
        checkNames(items, &findings)
        checkUniqueness(items, &findings)
        checkShape(items, &findings)
        checkKinds(items, &findings)
        checkCode(items, &findings)
        checkLinks(items, &findings)
        checkHygiene(items, maxUnpackedBytes: maxUnpackedBytes, &findings)
        return findings
    }
}
