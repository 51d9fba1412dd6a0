/// Every cap the tool applies, in one place: what Apple accepts, what the formats can hold, and
/// what hostile input may cost. Each module's limit values (`XarLimits`, `BomLimits`,
/// `XMLLimits`, the cpio caps) take their defaults from here; IAPCore sits below every module,
/// so each can read it.
package enum Limits {
    // MARK: Packages (Apple's rules, PackageFormat.md §6)

    /// Largest package Apple accepts for upload: 2 GiB (2,147,483,648 bytes).
    package static let packageBytes: UInt64 = 2_147_483_648
    /// Above this a package gets a warning (Apple did not say which "GB"): 2,000,000,000 bytes.
    package static let packageWarningBytes: UInt64 = 2_000_000_000
    /// Largest unpacked total accepted by default: 2 GiB, since a device must store what it unpacks.
    package static let unpackedBytes: UInt64 = 2_147_483_648
    /// Largest ContentInfo.plist: 1 MiB.
    package static let contentInfoBytes = 1 << 20

    // MARK: Entry names (PackageFormat.md §6)

    /// Longest entry path, in UTF-8 bytes, not counting a payload's leading "./".
    package static let pathBytes = 1024
    /// Longest path component, in UTF-8 bytes.
    package static let componentBytes = 255
    /// Symlinks followed while resolving one path before it is called a loop (the kernel's ELOOP).
    package static let symlinkHops = 40
    /// Most entries a content folder may hold before the walk gives up.
    package static let folderEntries = 2_000_000

    // MARK: The xar container

    /// Largest uncompressed TOC, declared and actual: 64 MiB.
    package static let tocBytes: UInt64 = 64 << 20
    /// Most `<file>` elements in a TOC.
    package static let tocFiles = 1_000_000
    /// Deepest XML nesting in a TOC.
    package static let tocDepth = 256
    /// Longest text in one TOC element (a name, a link target, a number).
    package static let tocTextBytes = 65_536
    /// Most findings collected; later ones are summarised in one last finding.
    package static let findings = 10_000
    /// Largest signature (CMS or RSA) read from the heap: 1 MiB.
    package static let signatureBytes: UInt64 = 1 << 20

    // MARK: XML documents and property lists

    /// Largest Distribution or PackageInfo document: 1 MiB.
    package static let documentBytes = 1 << 20
    /// Most elements in a Distribution or PackageInfo document.
    package static let documentElements = 10_000
    /// Deepest element nesting in an XML document, unless a reader says otherwise.
    package static let xmlDepth = 128
    /// Largest property list read: 1 MiB, as ContentInfo.plist.
    package static let propertyListBytes = contentInfoBytes
    /// Deepest nesting of arrays and dictionaries in a property list.
    package static let propertyListDepth = 64

    // MARK: The Bom

    /// Largest Bom: 256 MiB. Readers of a package ask the archive for at most this many bytes and
    /// the Bom reader refuses more, so inspect, validate and unpack refuse the same Boms.
    package static let bomBytes = 256 << 20
    /// Most paths in the Paths tree (and most entries in any other tree): as many as a content folder
    /// may hold, so every folder `build` accepts fits the product layout (a TOC stops at `tocFiles`,
    /// but the Bom and the Payload are where a product package keeps its entries).
    package static let bomEntries = folderEntries
    /// Longest path rebuilt from the Bom, in UTF-8 bytes, counting its leading "./".
    package static let bomPathBytes = pathBytes
    /// Deepest B-tree (levels from a tree's root node down to its leaves).
    package static let bomTreeDepth = 8
    /// Most named variables in the Bom's variable table.
    package static let bomVariables = 64

    // MARK: The cpio Payload

    /// Most bytes one entry's header may add to a Payload's decoded size beyond its data, for
    /// entries whose path obeys `pathBytes`: the larger fixed header (newc, 110 bytes; odc has 76),
    /// the name with its leading "./" and NUL (`pathBytes` + 3), and newc's padding of header+name
    /// and of data to 4 bytes (3 + 3). Decoded-size caps are the data plus this per entry.
    package static let cpioEntryAllowance: UInt64 = 110 + UInt64(pathBytes) + 3 + 3 + 3
    /// Slack on top of the per-entry allowances: the trailer entry and the final block's padding.
    package static let cpioSlackBytes: UInt64 = 1 << 20
    /// Longest cpio entry name read, in bytes with its NUL (Linux PATH_MAX).
    package static let cpioNameBytes: UInt64 = 4096
    /// Longest symlink target read into memory from a Payload (libarchive's own limit: 1 MiB).
    package static let cpioLinkTargetBytes: UInt64 = 1 << 20
    /// Most decoded Payload bytes inspect reads to reach ContentInfo.plist (its second entry).
    package static let inspectedPayloadBytes: UInt64 = 64 << 20

    // MARK: Decoders

    /// Memory the xz/lzma decoder may use: 256 MiB.
    package static let lzmaMemoryBytes: UInt64 = 256 << 20
}
