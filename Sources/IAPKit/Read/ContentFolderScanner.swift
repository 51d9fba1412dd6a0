import IAPSystem

/// One entry of a content folder on disk, with where its bytes come from.
package struct SourceEntry: Sendable {
    package var entry: ContentEntry
    /// Path of the object on disk (the folder's path joined with the entry's).
    package var sourcePath: String
    /// Modification time, seconds since 1970.
    package var modificationTime: Int64
}

/// A content folder, walked: what will be packaged, and what was left out.
package struct ContentFolderScan: Sendable {
    /// The folder that was walked.
    package var root: String
    /// Its base name: the component name productbuild gives a product archive.
    package var name: String
    /// Entries, root first, parents before children, names in byte order (kept apart from the
    /// disk details so the rules can read them without a copy: a folder can hold a million).
    package var contents: [ContentEntry] = []
    /// Each entry's modification time, in the same order.
    package var modificationTimes: [Int64] = []
    /// Junk left out (`.DS_Store`, `.git`…), as paths below the root.
    package var excluded: [String] = []
    /// Each entry's path on disk, in the same order, when the entries are gathered from several
    /// places (an Xcode project's resources); empty when every entry lies at its path below `root`.
    var sourcePaths: [String] = []

    init(root: String, name: String) {
        self.root = root
        self.name = name
    }

    /// The entries with their disk paths and times, made on demand.
    package var entries: SourceList { SourceList(scan: self) }

    /// Total bytes of regular files.
    package var totalFileBytes: UInt64 { contents.reduce(0) { $0 + ($1.kind == .file ? $1.size : 0) } }

    mutating func append(_ entry: ContentEntry, modificationTime: Int64, sourcePath: @autoclosure () -> String = "") {
        if tracksSourcePaths { sourcePaths.append(sourcePath()) }
        contents.append(entry)
        modificationTimes.append(modificationTime)
    }

    /// True for a scan whose entries come from several places (set before the first entry).
    var tracksSourcePaths = false
}

/// A scan's entries as `SourceEntry` values, built when read.
package struct SourceList: RandomAccessCollection, Sendable {
    let scan: ContentFolderScan
    package var startIndex: Int { 0 }
    package var endIndex: Int { scan.contents.count }
    package subscript(index: Int) -> SourceEntry {
        let entry = scan.contents[index]
        let path =
            !scan.sourcePaths.isEmpty
            ? scan.sourcePaths[index] : entry.components.isEmpty ? scan.root : scan.root + "/" + entry.path
        return SourceEntry(entry: entry, sourcePath: path, modificationTime: scan.modificationTimes[index])
    }
}

/// Walks a content folder without following links, sniffing every file's first bytes.
package enum ContentFolderScanner {
    /// Most entries a folder may hold before the walk gives up.
    package static let maxEntries = PackageLimits.folderEntries

    /// Walks `root`. With `excludeJunk`, clutter (`EntryNameRules.isJunk`) and its subtree are left out.
    package static func scan(_ root: String, excludeJunk: Bool) throws -> ContentFolderScan {
        let status: FileStatus
        do { status = try FileStatus.ofLink(root) } catch {
            throw SystemError("open folder", path: root, code: error.code)
        }
        guard status.isDirectory else {
            throw SystemError("open folder", path: root, code: SystemError.Code.notDirectory)
        }
        var scan = ContentFolderScan(root: root, name: baseName(of: root))
        scan.append(
            ContentEntry(rawPath: ".", components: [], kind: .directory, permissions: status.permissions),
            modificationTime: status.modificationTime)
        try walk(directory: root, components: [], into: &scan, excludeJunk: excludeJunk)
        scan.contents.shrinkToFit()
        scan.modificationTimes.shrinkToFit()
        return scan
    }

    /// Appends what `directory` holds, below `components`, to `scan`.
    static func walk(
        directory: String, components: [String], into scan: inout ContentFolderScan,
        excludeJunk: Bool
    ) throws {
        // Entries are looked up from the opened folder (no walk of the whole path for each); one
        // descriptor per level stays open while the levels below are walked, so deeper than
        // `relativeDepth` the whole paths are used instead.
        let relative = components.count < relativeDepth ? try DirectoryHandle.open(directory) : nil
        for name in try relative?.names() ?? names(in: directory) {
            let path = directory + "/" + name
            let parts = components + [name]
            if excludeJunk && EntryNameRules.isJunk(name) {
                scan.excluded.append(parts.joined(separator: "/"))
                continue
            }
            guard scan.contents.count < maxEntries else {
                throw SystemError(
                    "walk folder (more than \(maxEntries) entries)", path: directory, code: SystemError.Code.tooMany)
            }
            let openable = !name.unicodeScalars.contains("\u{FFFD}")  // invalid UTF-8: refused by the rules
            guard openable else {
                scan.append(
                    ContentEntry(rawPath: parts.joined(separator: "/"), components: parts, kind: .file),
                    modificationTime: 0, sourcePath: path)
                continue
            }
            let status = try relative?.linkStatus(name, reportedPath: path) ?? FileStatus.ofLink(path)
            let rawPath = parts.joined(separator: "/")
            var entry = ContentEntry(
                rawPath: rawPath, components: parts, kind: ContentEntry.Kind(status.kind),
                permissions: status.permissions)
            switch entry.kind {
            case .file:
                entry.size = status.size
                entry.sniff = try sniff(try relative?.openFile(name) ?? FileSystem.openNoFollow(path), size: entry.size)
            case .symlink:
                entry.linkTarget = try FileSystem.readLink(path)
                entry.size = UInt64(entry.linkTarget?.utf8.count ?? 0)
            default:
                break
            }
            scan.append(entry, modificationTime: status.modificationTime, sourcePath: path)
            // Clutter folders (.git, .svn…) are reported, never walked: build leaves them out whole.
            if entry.kind == .directory && !EntryNameRules.isJunk(name) {
                try walk(directory: path, components: parts, into: &scan, excludeJunk: excludeJunk)
            }
        }
    }

    /// Folder levels below the walk's start that look their entries up from the opened folder.
    static let relativeDepth = 32

    /// The names in a folder, in byte order, without "." and "..".
    static func names(in directory: String) throws -> [String] {
        try DirectoryHandle.open(directory).names()
    }

    /// Sniffs a file's first 4 KiB (and a far PE header) for executable code.
    static func sniff(_ path: String, size: UInt64) throws -> ContentSniff {
        try sniff(try FileSystem.openNoFollow(path), size: size)
    }

    /// Sniffs an opened file's first 4 KiB (and a far PE header) for executable code.
    static func sniff(_ file: FileDescriptor, size: UInt64) throws -> ContentSniff {
        var sniffer = ExecutableSniffer(fileSize: size)
        sniffer.feed(try file.read(count: Int(min(size, 4096)), at: 0))
        if let offset = sniffer.pendingOffset {
            sniffer.supply(try file.read(count: 4, at: offset), at: offset)
        }
        return sniffer.finish()
    }

    /// The last path component of `path`, resolving "." and trailing slashes.
    static func baseName(of path: String) -> String {
        let parts = (FileSystem.realPath(path) ?? path).split(separator: "/")
        return parts.last.map(String.init) ?? "content"
    }
}
