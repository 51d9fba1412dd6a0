import IAPSystem

/// Writes a validated package's entries into a private staging folder, relative to directory
/// descriptors only: `O_NOFOLLOW | O_EXCL`, modes normalised (0644 files, 0755 folders), no owners,
/// no extended attributes, hard links as copies, symlinks last and only if they stay inside Contents/.
///
/// A hard-link set ends up as an extractor that writes through the shared file leaves it (bsdtar):
/// every member holds the bytes of the last member that carried data of its own (newc sends the
/// data with the last link; odc with every link), or the first member's bytes if no link did.
final class StagingWriter {
    private let root: DirectoryHandle
    private var folders: [String: DirectoryHandle] = [:]
    /// Folders known to exist below the root (made or opened here), not all of them open.
    private var made: Set<String> = []
    /// The folder `makeFolder` saw last (its key and opened parent): the files that follow it ask again.
    private var lastMade: (key: String, parent: DirectoryHandle)?
    private var links: [ContentEntry] = []
    private var hardlinks: [ContentEntry] = []
    /// For each hard-link set (its first member's path), the last later member that carried data.
    private var carriers: [String: [String]] = [:]
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 64)
    private(set) var bytesWritten: UInt64 = 0
    private(set) var entriesWritten = 0
    /// Sync each file and folder itself (few entries), or the whole file system once at the end
    /// (many: one syncfs beats tens of thousands of fsyncs). Either way everything is on disk
    /// before the staging folder is renamed into place.
    private let syncEach: Bool
    private var written: [FileDescriptor] = []
    private var created: [String] = []
    /// What the delivery manifest lists: each file with the SHA-256 of the bytes written (hashed
    /// on another thread as they go to disk, so the manifest needs no second read), each symlink.
    private let manifest: ManifestHasher
    /// The umask and ACLs leave 0644 and 0755 as they are: no chmod after each create.
    private let modesExact: Bool

    /// The files and symlinks written, for `DeliveryManifest` (folders are not listed there).
    func manifestItems() -> [StagedManifestItem] { manifest.finish() }

    /// Files smaller than this get no early writeback of their own when one syncfs flushes the
    /// whole staging folder at the end: a system call per small file costs more than it overlaps.
    static let earlyWritebackBytes = 1 << 20

    /// Entries above which one syncfs replaces per-file fsyncs.
    static let perFileSyncLimit = 256  // files stay open until synced: well under the usual 1024-descriptor limit

    init(root: DirectoryHandle, entryCount: Int) {
        self.root = root
        syncEach = entryCount <= Self.perFileSyncLimit
        manifest = ManifestHasher(chunkBytes: 1 << 20, expectedItems: entryCount)
        modesExact = root.createsExactly([0o644, 0o755])
    }

    /// Waits for the manifest hasher before the buffer goes, so a failed unpack leaves no hashing
    /// behind it: the error reaches the caller (and the process may exit) with no thread still busy.
    deinit {
        manifest.waitUntilIdle()
        buffer.deallocate()
    }

    /// Writes one entry; `read` delivers a file's decoded bytes (0 at the end). The manifest keeps
    /// the entry's `path` (a tree package's entries share the TOC's strings: nothing joined per file).
    func write(_ entry: ContentEntry, read: ((UnsafeMutableRawBufferPointer) throws -> Int)?) throws {
        guard !entry.components.isEmpty else { return }
        switch entry.kind {
        case .directory:
            if syncEach { _ = try folder(entry.components) } else { try makeFolder(entry.components) }
        case .file:
            try writeFile(entry.components, path: entry.path, size: entry.size, read: read)
        case .symlink:
            links.append(entry)
        case .hardlink:
            if let read, entry.size > 0, let target = entry.hardlinkTarget {
                try writeFile(entry.components, path: entry.path, size: entry.size, read: read)
                carriers[ContentEntry.components(of: target).joined(separator: "/")] = entry.components
            }
            hardlinks.append(entry)
        default:
            throw IAPKitError.failed("\(entry.rawPath) is a \(entry.kind.name); it cannot be unpacked")
        }
        entriesWritten += 1
    }

    /// Writes hard links (as copies of their targets) and symlinks, after every file is in place.
    func finish(allEntries: [ContentEntry]) throws {
        try manifest.drain()  // the small files the hasher's thread writes are all there
        var refreshed: Set<String> = []
        for entry in hardlinks {
            guard let target = entry.hardlinkTarget.map(ContentEntry.components(of:)), !target.isEmpty else { continue }
            let key = target.joined(separator: "/")
            let source = carriers[key] ?? target
            if source != target, refreshed.insert(key).inserted { try copy(source, to: target) }
            if entry.components != source { try copy(source, to: entry.components) }
        }
        guard !links.isEmpty else { return }  // the resolver indexes every entry: only for links
        let resolver = SymlinkResolver(entries: allEntries)
        for entry in links {
            guard let name = entry.components.last, let target = try resolver.targetInsideContents(of: entry) else {
                continue
            }
            try folder(Array(entry.components.dropLast())).makeSymlink(name, target: target)
            manifest.symlink(path: entry.path, target: target)
        }
    }

    /// Writes a regular file of `size` bytes at `components` (`path` joined) from `read` (nil: empty).
    /// With one syncfs at the end, a small file is created and written on the hasher's thread
    /// from the copy it hashes: this thread only decodes, makes folders and copies.
    private func writeFile(
        _ components: [String], path: String, size expected: UInt64,
        read: ((UnsafeMutableRawBufferPointer) throws -> Int)?
    ) throws {
        guard let name = components.last else { return }
        if !syncEach && expected < UInt64(Self.earlyWritebackBytes) {
            let (base, below) = try place(Array(components.dropLast()))
            try manifest.throwIfFailed()
            let relative = below.isEmpty ? name : below + "/" + name
            manifest.begin(creating: .init(folder: base, path: relative, modeIsExact: modesExact))
            var size = 0
            while let read {
                let n = try read(buffer)
                if n == 0 { break }
                manifest.update(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
                bytesWritten += UInt64(n)
                size += n
            }
            manifest.end(path: path, size: UInt64(size))
            return
        }
        let file = try folder(Array(components.dropLast())).createFile(name, mode: 0o644, modeIsExact: modesExact)
        manifest.begin()
        var size = 0
        if let read {
            var pacer = WritebackPacer()
            while true {
                let n = try read(buffer)
                if n == 0 { break }
                let bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<n])
                try file.write(bytes)
                manifest.update(bytes)
                bytesWritten += UInt64(n)
                size += n
                pacer.wrote(n, to: file)
            }
        }
        if syncEach || size >= Self.earlyWritebackBytes { file.startWriteback() }
        if syncEach { written.append(file) }
        manifest.end(path: path, size: UInt64(size))
    }

    /// Makes the file at `destination` a copy of the one at `source`, replacing what is there.
    private func copy(_ source: [String], to destination: [String]) throws {
        guard let sourceName = source.last, let name = destination.last else { return }
        let input = try folder(Array(source.dropLast())).openFile(sourceName)
        let parent = try folder(Array(destination.dropLast()))
        if parent.status(name) != nil { try parent.removeTree(name) }
        let file = try parent.createFile(name, mode: 0o644, modeIsExact: modesExact)
        manifest.begin()
        var size = 0
        while true {
            let n = try input.readSequential(into: buffer)
            if n == 0 { break }
            let bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<n])
            try file.write(bytes)
            manifest.update(bytes)
            bytesWritten += UInt64(n)
            size += n
        }
        if syncEach { written.append(file) }
        manifest.end(path: destination.joined(separator: "/"), size: UInt64(size))
    }

    /// Flushes what was written to the disk: each file and folder (few entries), or the whole file
    /// system the staging folder is on (many).
    func sync() throws {
        try manifest.drain()
        guard syncEach else { return try root.syncFileSystem() }
        for file in written { try file.sync() }
        written.removeAll()
        for path in created.reversed() { try folder(PathText.components(path, omittingEmpty: true)).sync() }
        try root.sync()
    }

    /// The folder at `components` below the staging root, created (0755) with its parents if missing.
    private func folder(_ components: [String]) throws -> DirectoryHandle {
        if components.isEmpty { return root }
        let key = components.joined(separator: "/")
        if let open = folders[key] { return open }
        let parent = try folder(Array(components.dropLast()))
        let name = components[components.count - 1]
        if !made.contains(key), try parent.makeDirectoryIfMissing(name, mode: 0o755, modeIsExact: modesExact),
            syncEach
        {
            created.append(key)
        }
        let handle = try parent.openDirectory(name)
        if folders.count >= 256 { folders.removeAll(keepingCapacity: true) }  // bound open descriptors
        folders[key] = handle
        made.insert(key)
        return handle
    }

    /// Makes the folder at `components` (0755) and its parents if missing, without opening it: one
    /// `mkdirat` in its opened parent. Something already there must be a folder. Returns where files
    /// in it are created from: the folder itself if it is open, else its parent and its name.
    @discardableResult
    private func makeFolder(_ components: [String]) throws -> (DirectoryHandle, String) {
        guard let name = components.last else { return (root, "") }
        let key = components.joined(separator: "/")
        if let open = folders[key] { return (open, "") }
        if let last = lastMade, last.key == key { return (last.parent, name) }
        let parent = try folder(Array(components.dropLast()))
        if !made.contains(key) {
            if try !parent.makeDirectoryIfMissing(name, mode: 0o755, modeIsExact: modesExact),
                parent.status(name)?.isDirectory != true
            {
                throw SystemError("create folder", path: parent.child(name), code: SystemError.Code.notDirectory)
            }
            if made.count >= 4096 { made.removeAll(keepingCapacity: true) }  // bounded; made again is EEXIST
            made.insert(key)
        }
        lastMade = (key, parent)
        return (parent, name)
    }

    /// Makes the folder at `components` if missing and returns the nearest opened folder with the
    /// path from it: files below it are then created by path (`createFile(beneath:)`), with no
    /// open or close of their own folder.
    private func place(_ components: [String]) throws -> (DirectoryHandle, String) {
        guard components.count > 1 else { return (try folder(components), "") }
        return try makeFolder(components)
    }
}
