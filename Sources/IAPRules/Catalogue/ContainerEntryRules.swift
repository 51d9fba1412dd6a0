/// The xar entries of the table of contents and their data in the heap.
public struct ContainerEntryRules: RuleGroup {
    public let xarFileName = Rule(
        "xar-file-name", .error, .container,
        "A xar entry's name is missing, or given twice with different values.",
        "Every <file> has exactly one <name>; a missing name gives an entry no path, two names let two readers extract it to two places. Rebuild the package with `iapkg build`, or ask its writer for a fixed one."
    )
    public let xarNameEncoding = Rule(
        "xar-name-encoding", .error, .container,
        "A xar name uses an encoding other readers do not decode, or bad base64.",
        "A <name> may be plain text or base64 (enctype=\"base64\"); other encodings, or base64 that does not decode to UTF-8, name the entry differently in every reader. Rebuild the package with names in UTF-8."
    )
    public let xarFileType = Rule(
        "xar-file-type", .error, .container,
        "A xar entry's type is missing or unknown, or contradicts its fields.",
        "Every <file> has one <type> (file, directory, symlink, hardlink…) that agrees with what it carries (a link target for a symlink, data for a file). Rebuild the package with `iapkg build`, or ask its writer for a fixed one."
    )
    public let xarFileId = Rule(
        "xar-file-id", .error, .container,
        "A xar entry's id is missing or repeated.",
        "Each <file> has a unique id attribute, which hard links refer to; a missing or repeated id makes links ambiguous. Rebuild the package with `iapkg build`, or ask its writer for a fixed one."
    )
    public let xarDataFields = Rule(
        "xar-data-fields", .error, .container,
        "A xar entry's data element lacks or repeats a field (offset, length, size, encoding, checksums).",
        "A <data> element needs one offset, length, size, encoding and the archived and extracted checksums; a missing or repeated field leaves readers to guess where the bytes are. Rebuild the package with `iapkg build`, or ask its writer for a fixed one."
    )
    public let xarDataRange = Rule(
        "xar-data-range", .error, .container,
        "A xar entry's data lies outside the heap.",
        "An entry's offset and length must name bytes inside the heap; these run past the end of the file (a truncated download) or overflow. Download the package again, or rebuild it."
    )
    public let xarDataOverlap = Rule(
        "xar-data-overlap", .error, .container,
        "Two xar entries' data overlap in the heap without being identical.",
        "Entries may share the very same bytes (a writer's deduplication), but partly overlapping ranges, or a range over the TOC digest, mean a forged or damaged package. Rebuild the package."
    )
    public let xarEncoding = Rule(
        "xar-encoding", .error, .container,
        "A xar entry's data uses an encoding other than raw or zlib.",
        "iapkg reads data stored raw or compressed with zlib (and bzip2 or xz written by other tools); an unknown or missing encoding leaves the bytes unreadable. Rebuild the package with zlib or no compression."
    )
    public let xarChecksumMissing = Rule(
        "xar-checksum-missing", .error, .container,
        "A xar entry's data carries no checksum.",
        "Without archived and extracted checksums an entry's bytes can change unnoticed. Rebuild the package with a writer that checksums every entry (`iapkg build` does)."
    )
    public let xarArchivedChecksum = Rule(
        "xar-archived-checksum", .error, .container,
        "A xar entry's stored bytes do not match their archived checksum.",
        "The bytes in the heap are not the ones the writer checksummed: the file is damaged or was changed after it was written. Download the package again, or rebuild it."
    )
    public let xarExtractedChecksum = Rule(
        "xar-extracted-checksum", .error, .container,
        "A xar entry's decoded bytes do not match their extracted checksum.",
        "The entry decodes to other bytes than the writer stored: the compressed data or the checksum was changed. Download the package again, or rebuild it."
    )
    public let xarDataSize = Rule(
        "xar-data-size", .error, .container,
        "A xar entry's decoded size is not the size it declares.",
        "Readers allocate and check by the declared size; data that decodes to more (decoding stops at once) or fewer bytes is damaged or a decompression bomb. Rebuild the package."
    )
    public let xarDataDecode = Rule(
        "xar-data-decode", .error, .container,
        "A xar entry's data does not decode.",
        "The entry's compressed stream is corrupt, cut short or never ends. Download the package again, or rebuild it."
    )
    public let xarData = Rule(
        "xar-data", .error, .container,
        "The package's data could not be read.",
        "Reading the package failed for a reason outside its format (an input/output error, a file that changed or shrank while it was read). Check the disk and the file, then validate it again.",
        tableNote: "the package could not be read: an input/output error"
    )
    public let xarHeapUnreferenced = Rule(
        "xar-heap-unreferenced", .warning, .container,
        "Heap bytes that no entry references.",
        "Bytes in the heap that no entry and no checksum names are dead weight at best and a hiding place at worst. Rebuild the package; `iapkg build` leaves no gap."
    )
    public let xarNameWrapped = Rule(
        "xar-name-wrapped", .warning, .container,
        "A base64 name that bsdtar extracts cut at its first line break.",
        "A name stored as base64 with a line break inside is decoded whole by xar and iapkg, but bsdtar (libarchive) stops at the break and extracts the entry under a shorter name. Rebuild the package with a writer that stores base64 names on one line.",
        tableNote: "a base64 name bsdtar extracts cut at its first line break"
    )
}
