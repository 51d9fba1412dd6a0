import IAPCore

/// Writes a validated package's entries into a private staging folder, relative to directory
/// descriptors only: `O_NOFOLLOW | O_EXCL`, modes normalised (0644 files, 0755 folders), no owners,
/// no extended attributes, hard links as copies, symlinks last and only if they stay inside Contents/.
final class StagingWriter {
    private let root: DirectoryHandle
    private var folders: [String: DirectoryHandle] = [:]
    private var links: [ContentEntry] = []
    private var hardlinks: [ContentEntry] = []
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 64)
    private(set) var bytesWritten: UInt64 = 0
    private(set) var entriesWritten = 0
    /// Sync each file and folder itself (few entries), or the whole file system once at the end
    /// (many: one syncfs beats tens of thousands of fsyncs). Either way everything is on disk
    /// before the staging folder is renamed into place.
    private let syncEach: Bool
    private var written: [FileDescriptor] = []
    private var created: [String] = []

    /// Entries above which one syncfs replaces per-file fsyncs.
    static let perFileSyncLimit = 256  // files stay open until synced: well under the usual 1024-descriptor limit

    init(root: DirectoryHandle, entryCount: Int) {
        self.root = root
        syncEach = entryCount <= Self.perFileSyncLimit
    }

    deinit { buffer.deallocate() }

    /// Writes one entry; `read` delivers a file's decoded bytes (0 at the end).
    func write(_ entry: ContentEntry, read: ((UnsafeMutableRawBufferPointer) throws -> Int)?) throws {
        guard let name = entry.components.last else { return }
        switch entry.kind {
        case .directory:
            _ = try folder(entry.components)
        case .file:
            let parent = try folder(Array(entry.components.dropLast()))
            let file = try parent.createFile(name, mode: 0o644)
            if let read {
                var sinceWriteback = 0
                while true {
                    let n = try read(buffer)
                    if n == 0 { break }
                    try file.write(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
                    bytesWritten += UInt64(n)
                    sinceWriteback += n
                    if sinceWriteback >= 8 << 20 {
                        file.startWriteback()
            if syncEach { written.append(file) }
                        sinceWriteback = 0
                    }
                }
            }
            file.startWriteback()
            if syncEach { written.append(file) }
        case .symlink:
            links.append(entry)
        case .hardlink:
            hardlinks.append(entry)
        default:
            throw IAPKitError.failed("\(entry.rawPath) is a \(entry.kind.name); it cannot be unpacked")
        }
        entriesWritten += 1
    }

    /// Writes hard links (as copies of their targets) and symlinks, after every file is in place.
    func finish(allEntries: [ContentEntry]) throws {
        for entry in hardlinks {
            guard let target = entry.hardlinkTarget.map(ContentEntry.components(of:)), let targetName = target.last,
                  let name = entry.components.last else { continue }
            let source = try folder(Array(target.dropLast())).openFile(targetName)
            let file = try folder(Array(entry.components.dropLast())).createFile(name, mode: 0o644)
            while true {
                let n = try source.readSequential(into: buffer)
                if n == 0 { break }
                try file.write(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
                bytesWritten += UInt64(n)
            }
        }
        let resolver = SymlinkResolver(entries: allEntries)
        for entry in links {
            guard let name = entry.components.last, let target = entry.linkTarget else { continue }
            let resolved: [String]? = switch resolver.resolve(linkAt: entry.components) {
            case .inside(let path): path
            case .dangling(let path): path
            default: nil
            }
            guard let resolved, resolved.first == "Contents" else {
                throw IAPKitError.failed("\(entry.rawPath): the symlink to '\(target)' does not stay inside Contents/; not written")
            }
            try folder(Array(entry.components.dropLast())).makeSymlink(name, target: target)
        }
    }

    /// Flushes what was written to the disk: each file and folder (few entries), or the whole file
    /// system the staging folder is on (many).
    func sync() throws {
        guard syncEach else { return try root.syncFileSystem() }
        for file in written { try file.sync() }
        written.removeAll()
        for path in created.reversed() { try folder(path.split(separator: "/").map(String.init)).sync() }
        try root.sync()
    }

    /// The folder at `components` below the staging root, created (0755) with its parents if missing.
    private func folder(_ components: [String]) throws -> DirectoryHandle {
        if components.isEmpty { return root }
        let key = components.joined(separator: "/")
        if let open = folders[key] { return open }
        let parent = try folder(Array(components.dropLast()))
        let name = components[components.count - 1]
        if parent.status(name) == nil {
            try parent.makeDirectory(name, mode: 0o755)
            if syncEach { created.append(key) }
        }
        let handle = try parent.openDirectory(name)
        if folders.count >= 256 { folders.removeAll(keepingCapacity: true) }  // bound open descriptors
        folders[key] = handle
        return handle
    }
}
