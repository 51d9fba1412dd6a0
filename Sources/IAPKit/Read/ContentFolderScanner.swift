import IAPCore

#if canImport(Glibc)
    import Glibc
#endif

/// One entry of a content folder on disk, with where its bytes come from.
public struct SourceEntry: Sendable {
    public var entry: ContentEntry
    /// Path of the object on disk (the folder's path joined with the entry's).
    public var sourcePath: String
    /// Modification time, seconds since 1970.
    public var modificationTime: Int64
}

/// A content folder, walked: what will be packaged, and what was left out.
public struct ContentFolderScan: Sendable {
    /// The folder that was walked.
    public var root: String
    /// Its base name: the component name productbuild gives a product archive.
    public var name: String
    /// Entries, root first, parents before children, names in byte order (kept apart from the
    /// disk details so the rules can read them without a copy: a folder can hold a million).
    public var contents: [ContentEntry] = []
    /// Each entry's modification time, in the same order.
    public var modificationTimes: [Int64] = []
    /// Junk left out (`.DS_Store`, `.git`…), as paths below the root.
    public var excluded: [String] = []

    init(root: String, name: String) {
        self.root = root
        self.name = name
    }

    /// The entries with their disk paths and times, made on demand.
    public var entries: SourceList { SourceList(scan: self) }

    /// Total bytes of regular files.
    public var totalFileBytes: UInt64 { contents.reduce(0) { $0 + ($1.kind == .file ? $1.size : 0) } }

    mutating func append(_ entry: ContentEntry, modificationTime: Int64) {
        contents.append(entry)
        modificationTimes.append(modificationTime)
    }
}

/// A scan's entries as `SourceEntry` values, built when read.
public struct SourceList: RandomAccessCollection, Sendable {
    let scan: ContentFolderScan
    public var startIndex: Int { 0 }
    public var endIndex: Int { scan.contents.count }
    public subscript(index: Int) -> SourceEntry {
        let entry = scan.contents[index]
        let path = entry.components.isEmpty ? scan.root : scan.root + "/" + entry.path
        return SourceEntry(entry: entry, sourcePath: path, modificationTime: scan.modificationTimes[index])
    }
}

/// Walks a content folder without following links, sniffing every file's first bytes.
public enum ContentFolderScanner {
    /// Most entries a folder may hold before the walk gives up.
    public static let maxEntries = 2_000_000

    /// Walks `root`. With `excludeJunk`, clutter (`EntryNameRules.isJunk`) and its subtree are left out.
    public static func scan(_ root: String, excludeJunk: Bool) throws -> ContentFolderScan {
        var st = stat()
        guard lstat(root, &st) == 0 else { throw SystemError("open folder", path: root) }
        guard st.st_mode & S_IFMT == S_IFDIR else { throw SystemError("open folder", path: root, code: ENOTDIR) }
        var scan = ContentFolderScan(root: root, name: baseName(of: root))
        scan.append(
            ContentEntry(rawPath: ".", components: [], kind: .directory, permissions: UInt32(st.st_mode) & 0o7777),
            modificationTime: Int64(st.st_mtim.tv_sec))
        try walk(directory: root, components: [], into: &scan, excludeJunk: excludeJunk)
        return scan
    }

    private static func walk(
        directory: String, components: [String], into scan: inout ContentFolderScan,
        excludeJunk: Bool
    ) throws {
        for name in try names(in: directory) {
            let path = directory + "/" + name
            let parts = components + [name]
            if excludeJunk && EntryNameRules.isJunk(name) {
                scan.excluded.append(parts.joined(separator: "/"))
                continue
            }
            guard scan.contents.count < maxEntries else {
                throw SystemError("walk folder (more than \(maxEntries) entries)", path: directory, code: E2BIG)
            }
            let openable = !name.unicodeScalars.contains("\u{FFFD}")  // invalid UTF-8: refused by the rules
            guard openable else {
                scan.append(
                    ContentEntry(rawPath: parts.joined(separator: "/"), components: parts, kind: .file),
                    modificationTime: 0)
                continue
            }
            var st = stat()
            guard lstat(path, &st) == 0 else { throw SystemError("stat", path: path) }
            let rawPath = parts.joined(separator: "/")
            var entry = ContentEntry(
                rawPath: rawPath, components: parts, kind: kind(of: st.st_mode),
                permissions: UInt32(st.st_mode) & 0o7777)
            switch entry.kind {
            case .file:
                entry.size = UInt64(st.st_size)
                entry.sniff = try sniff(path, size: entry.size)
            case .symlink:
                entry.linkTarget = try readLink(path)
                entry.size = UInt64(entry.linkTarget?.utf8.count ?? 0)
            default:
                break
            }
            scan.append(entry, modificationTime: Int64(st.st_mtim.tv_sec))
            // Clutter folders (.git, .svn…) are reported, never walked: build leaves them out whole.
            if entry.kind == .directory && !EntryNameRules.isJunk(name) {
                try walk(directory: path, components: parts, into: &scan, excludeJunk: excludeJunk)
            }
        }
    }

    /// The names in a folder, in byte order, without "." and "..".
    static func names(in directory: String) throws -> [String] {
        guard let dir = opendir(directory) else { throw SystemError("open folder", path: directory) }
        defer { closedir(dir) }
        var names: [[UInt8]] = []
        errno = 0
        while let item = readdir(dir) {
            let name: [UInt8] = withUnsafeBytes(of: item.pointee.d_name) { raw in
                Array(raw.prefix(while: { $0 != 0 }))
            }
            if name == [0x2E] || name == [0x2E, 0x2E] { continue }
            names.append(name)
        }
        if errno != 0 { throw SystemError("read folder", path: directory) }
        names.sort { $0.lexicographicallyPrecedes($1) }
        return names.map { String(decoding: $0, as: UTF8.self) }
    }

    private static func kind(of mode: mode_t) -> ContentEntry.Kind {
        switch mode & S_IFMT {
        case S_IFREG: .file
        case S_IFDIR: .directory
        case S_IFLNK: .symlink
        case S_IFIFO: .fifo
        case S_IFCHR: .characterDevice
        case S_IFBLK: .blockDevice
        case S_IFSOCK: .socket
        default: .unknown("type \(String(mode & S_IFMT, radix: 8))")
        }
    }

    private static func readLink(_ path: String) throws -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink(path, &buffer, buffer.count - 1)
        guard n >= 0 else { throw SystemError("read link", path: path) }
        return String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Sniffs a file's first 4 KiB (and a far PE header) for executable code.
    static func sniff(_ path: String, size: UInt64) throws -> ContentSniff {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { throw SystemError("open", path: path) }
        let file = FileDescriptor(owning: fd, path: path)
        var sniffer = ExecutableSniffer(fileSize: size)
        sniffer.feed(try file.read(count: Int(min(size, 4096)), at: 0))
        if let offset = sniffer.pendingOffset {
            sniffer.supply(try file.read(count: 4, at: offset), at: offset)
        }
        return sniffer.finish()
    }

    /// The last path component of `path`, resolving "." and trailing slashes.
    static func baseName(of path: String) -> String {
        var resolved = path
        if let real = realpath(path, nil) {
            resolved = String(cString: real)
            free(real)
        }
        let parts = resolved.split(separator: "/")
        return parts.last.map(String.init) ?? "content"
    }
}
