/// Entry names, paths, types and modes.
public struct EntryRules: RuleGroup {
    public let entryNameInvalid = Rule(
        "entry-name-invalid", .error, .entries,
        "An entry's name is empty, '.' or '..', or is not valid UTF-8 without NUL bytes.",
        "Names must be valid UTF-8 without NUL, '/', '\\' or control characters, and not empty, '.' or '..'; other names are cut, rewritten or used to escape the content root. Rename the entry and rebuild."
    )
    public let entryAbsolutePath = Rule(
        "entry-absolute-path", .error, .entries,
        "An entry's path is absolute.",
        "An absolute path would be written outside the content root. Rebuild the package from a content folder so every path is relative."
    )
    public let entryComponentLength = Rule(
        "entry-component-length", .error, .entries,
        "A path component is longer than file systems accept.",
        "A name over 255 bytes cannot be created on common file systems. Shorten it and rebuild."
    )
    public let entryPathLength = Rule(
        "entry-path-length", .error, .entries,
        "An entry's path is longer than readers accept.",
        "A path over 1024 bytes cannot be opened everywhere. Shorten the folders or names and rebuild."
    )
    public let entryDuplicate = Rule(
        "entry-duplicate", .error, .entries,
        "Two entries have the same path.",
        "Which of two entries with one path wins depends on the reader. Remove one and rebuild."
    )
    public let entryFileDirConflict = Rule(
        "entry-file-dir-conflict", .error, .entries,
        "A path is both a file and a folder.",
        "One entry makes the path a file and another puts entries beneath it; readers disagree on which survives. Rename one and rebuild."
    )
    public let entryUnicodeCollision = Rule(
        "entry-unicode-collision", .error, .entries,
        "Two paths are equal after Unicode normalisation.",
        "Apple file systems treat differently normalised spellings (é as one or two code points) as one name, so one entry overwrites the other. Rename one and rebuild."
    )
    public let entrySpecialFile = Rule(
        "entry-special-file", .error, .entries,
        "An entry is a device, FIFO or socket.",
        "Device nodes, FIFOs and sockets are not content and can be dangerous to create. Remove them and rebuild."
    )
    public let entrySetid = Rule(
        "entry-setid", .error, .entries,
        "An entry has the setuid, setgid or sticky bit.",
        "Set-id bits ask the system to run code with other rights; content never needs them. Clear them (chmod u-s,g-s,-t) and rebuild."
    )
    public let entryDataNotFile = Rule(
        "entry-data-not-file", .error, .entries,
        "A folder or symlink carries data.",
        "Only regular files carry data; data on a folder or a symlink is hidden from some readers and seen by others. Rebuild the package with `iapkg build`, or ask its writer for a fixed one.",
        tableNote: "data on a folder or a symlink"
    )
    public let entryReaderCollision = Rule(
        "entry-reader-collision", .error, .entries,
        "A name that bsdtar cuts lands on another entry's path.",
        "bsdtar (libarchive) extracts a base64 name cut at its first line break; the cut name is another entry's path, so one overwrites the other there. Rename the entry and rebuild.",
        tableNote: "a name bsdtar cuts onto another entry's path"
    )
    public let entryCaseCollision = Rule(
        "entry-case-collision", .warning, .entries,
        "Two paths differ only in letter case.",
        "On a case-insensitive file system (the default on Apple devices) one overwrites the other. Rename one."
    )
    public let entryBidi = Rule(
        "entry-bidi", .warning, .entries,
        "An entry's name has bidirectional or invisible control characters.",
        "Bidirectional overrides and invisible characters make a name look like another (a .txt that is really .app). Rename the entry."
    )
    public let entryXattr = Rule(
        "entry-xattr", .warning, .entries,
        "An entry carries extended attributes.",
        "Extended attributes are never restored on unpack, so whatever they hold is lost. Remove them (xattr -c) and rebuild."
    )
    public let entryFlags = Rule(
        "entry-flags", .warning, .entries,
        "An entry carries file flags.",
        "File flags (immutable, hidden…) are never restored on unpack. Clear them (chflags 0) and rebuild."
    )
}
