/// The xar header and the table of contents (TOC) that lists every entry.
public struct ContainerArchiveRules: RuleGroup {
    public let xarMagic = Rule(
        "xar-magic", .error, .container,
        "The file does not start with the xar magic 'xar!'.",
        "A package is a xar archive, whose first 4 bytes are 'xar!'; this file is something else (a zip, a disk image, an empty or half-downloaded file). Build the package with `iapkg build`, or download it again."
    )
    public let xarHeaderSize = Rule(
        "xar-header-size", .error, .container,
        "The xar header is cut short or declares a size no reader accepts.",
        "The xar header is 28 bytes and declares its own size; a file that ends inside it is truncated, and a size other than 28 is read differently by different readers. Download the package again, or rebuild it."
    )
    public let xarVersion = Rule(
        "xar-version", .error, .container,
        "The xar header's version is not 1.",
        "Every xar reader in use knows version 1 only; another version means another format or a damaged header. Rebuild the package with `iapkg build`, or ask its writer for a fixed one."
    )
    public let xarChecksumNone = Rule(
        "xar-checksum-none", .error, .container,
        "The table of contents carries no checksum (algorithm none).",
        "Without a TOC checksum nothing protects the table of contents, and with it every entry's checksum, from corruption or tampering. Rebuild the package with a SHA-1 or SHA-256 TOC checksum (`iapkg build` writes SHA-1, as productbuild did)."
    )
    public let xarTocLength = Rule(
        "xar-toc-length", .error, .container,
        "The header's table-of-contents lengths are zero, too large or past the end of the file.",
        "The header declares how long the compressed TOC is; the TOC must end exactly there, inside the file, with the heap after it. A length past the end means a truncated file, junk after the TOC means a damaged one. Download the package again, or rebuild it."
    )
    public let xarTocInflate = Rule(
        "xar-toc-inflate", .error, .container,
        "The compressed table of contents does not inflate as zlib.",
        "The TOC is stored as a zlib stream; this one is corrupt, so no entry can be found. Download the package again, or rebuild it."
    )
    public let xarTocSize = Rule(
        "xar-toc-size", .error, .container,
        "The inflated table of contents is not the size the header declares.",
        "The header declares the TOC's inflated size and readers allocate by it; a TOC that inflates to another size is damaged or forged. Rebuild the package."
    )
    public let xarTocTooLarge = Rule(
        "xar-toc-too-large", .error, .container,
        "The table of contents is over the 64 MiB cap.",
        "A TOC that large describes millions of entries or hides a decompression bomb; iapkg refuses it before parsing. Split the content into several packages, or rebuild a damaged one."
    )
    public let xarTocXml = Rule(
        "xar-toc-xml", .error, .container,
        "The table of contents is not well-formed XML of the xar shape.",
        "The TOC must be well-formed XML with a <xar><toc> root and the elements xar readers know; other readers would see other entries, or none. Rebuild the package with `iapkg build`, or ask its writer for a fixed one."
    )
    public let xarTocDoctype = Rule(
        "xar-toc-doctype", .error, .container,
        "The table of contents has a DTD or entity declarations.",
        "A DOCTYPE in the TOC can declare entities that expand to gigabytes or fetch files; no xar writer emits one, so it is refused. Rebuild the package with an ordinary xar writer."
    )
    public let xarTocChecksumCount = Rule(
        "xar-toc-checksum-count", .error, .container,
        "The table of contents names more or fewer than one checksum.",
        "Exactly one <checksum> in the TOC tells where the TOC's digest lies in the heap; none or two leave readers to guess which one protects the TOC. Rebuild the package with `iapkg build`, or ask its writer for a fixed one."
    )
    public let xarTocChecksumSize = Rule(
        "xar-toc-checksum-size", .error, .container,
        "The TOC checksum's size does not match its algorithm.",
        "The TOC <checksum> declares a size that is not the digest size of its algorithm (20 bytes for SHA-1, 32 for SHA-256), or a style that disagrees with the header. Rebuild the package with `iapkg build`, or ask its writer for a fixed one."
    )
    public let xarTocChecksumRange = Rule(
        "xar-toc-checksum-range", .error, .container,
        "The TOC checksum lies outside the heap.",
        "The TOC digest's offset and size must name bytes inside the heap; these do not, so the TOC cannot be verified. The file is truncated or damaged: download it again, or rebuild it."
    )
    public let xarTocChecksumMismatch = Rule(
        "xar-toc-checksum-mismatch", .error, .container,
        "The TOC checksum does not match the table of contents.",
        "The digest stored in the heap is not the digest of the compressed TOC: the TOC or the digest was changed after the package was written. Download the package again, or rebuild it; never edit a package by hand."
    )
    public let xarNumber = Rule(
        "xar-number", .error, .container,
        "A number in the table of contents is malformed or out of range.",
        "Every number in the TOC (offsets, lengths, sizes, ids, modes, times) must be plain decimal (octal for modes) that fits in 64 bits; signs, spaces, hex or overflow are read differently by different readers. Rebuild the package with `iapkg build`, or ask its writer for a fixed one."
    )
    public let xarChecksumMd5 = Rule(
        "xar-checksum-md5", .warning, .container,
        "A TOC or file checksum is MD5, which is broken.",
        "MD5 collisions are cheap, so an MD5 checksum does not protect the package from tampering. Rebuild the package with SHA-1 or SHA-256 checksums (`iapkg build` writes SHA-1, as productbuild did).",
        tableNote: "TOC or file checksums"
    )
}
