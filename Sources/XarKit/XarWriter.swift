import IAPSystem
import XMLKit

/// Writes a xar archive reproducibly: the same entries and options give the same bytes.
/// File data is streamed into a temporary heap file, never held in memory.
package final class XarWriter {
    /// One entry as it will appear in the TOC.
    struct Entry {
        var id: UInt64
        var name: String
        var path: String
        var type: XarFileType
        var mode: UInt32
        var mtime: String
        var linkTarget: String?
        var data: XarData?
        var children: [Int] = []
    }

    /// Checksum, compression level and creation time, fixed at creation.
    let options: XarWriterOptions
    /// Where file data goes: an unlinked temporary file, or the output itself (`directStart`).
    var heap: FileDescriptor
    /// Set when the heap is written straight into the output, after this many reserved bytes.
    var directStart: UInt64?
    /// Bytes of file data written so far.
    var heapLength: UInt64 = 0
    /// Every entry, in the order added.
    var entries: [Entry] = []
    /// Indexes of the entries at the root, in TOC order.
    var topLevel: [Int] = []
    /// Entry index by path, for parents, duplicates and link types.
    var indexByPath: [String: Int] = [:]
    /// One string per distinct time stamp (at most 4,096 kept): a build gives most entries the same
    /// one, and a string of its own per entry cost 64 bytes each (6 MB at 100,000 entries).
    var mtimes: Set<String> = []
    /// Set once the archive is finished (or a failed write left the heap unusable).
    var finished = false
    private static let maxDepth = 256

    /// A writer whose heap lives in an unlinked temporary file inside `temporaryDirectory`;
    /// `finish(to:)` then writes header, TOC and heap to the output.
    package init(temporaryDirectory: String, options: XarWriterOptions) throws(XarError) {
        try Self.check(options)
        self.options = options
        heap = try Self.temporaryHeap(in: temporaryDirectory)
    }

    /// A writer that streams the heap straight into `output` after `reservedBytes` bytes kept for the
    /// header and the TOC, so the data is written once; `finishInPlace()` fills the reserved room
    /// (the TOC is padded to fit exactly). For archives with a small TOC, such as a product archive.
    /// `output` must be open for reading too (for the rare case the TOC outgrows the room).
    package init(directTo output: FileDescriptor, reservedBytes: Int, options: XarWriterOptions) throws(XarError) {
        try Self.check(options)
        guard reservedBytes > XarHeader.byteCount + 64 else {
            throw XarError(
                rule: nil, "\(reservedBytes) reserved bytes cannot hold a header and a TOC", advice: "reserve more")
        }
        self.options = options
        heap = output
        directStart = UInt64(reservedBytes)
        try xarIO("writing \(output.path)") { try output.seek(to: UInt64(reservedBytes + options.checksum.byteCount)) }
    }

    static func check(_ options: XarWriterOptions) throws(XarError) {
        guard isISO8601Timestamp(options.creationTime) else {
            throw XarError(
                rule: nil, "creation time \"\(options.creationTime)\" is not YYYY-MM-DDTHH:MM:SSZ",
                advice: "give an ISO-8601 UTC time such as 2024-01-01T00:00:00Z")
        }
        guard (0...9).contains(options.compressionLevel) else {
            throw XarError(
                rule: nil, "compression level \(options.compressionLevel) is not 0 to 9",
                advice: "give a level from 0 to 9")
        }
    }

    static func temporaryHeap(in temporaryDirectory: String) throws(XarError) -> FileDescriptor {
        do {
            let heap = try FileSystem.makeTemporaryFile(in: temporaryDirectory, prefix: ".xar-heap-")
            _ = FileSystem.remove(heap.path)
            return heap
        } catch {
            throw XarError.io(error, "creating the heap file")
        }
    }

    // MARK: - Adding entries

    /// Adds a directory; its parent must already be added.
    package func addDirectory(path: String, mode: UInt32 = 0o755, mtime: String) throws(XarError) {
        try add(path: path, type: .directory, mode: mode, mtime: mtime, linkTarget: nil, data: nil)
    }

    /// Adds a symbolic link to `target`; its parent must already be added.
    package func addSymlink(path: String, target: String, mode: UInt32 = 0o755, mtime: String) throws(XarError) {
        guard !target.isEmpty else {
            throw XarError(rule: nil, "the symlink has an empty target", entry: path, advice: "give the link a target")
        }
        try add(path: path, type: .symlink, mode: mode, mtime: mtime, linkTarget: target, data: nil)
    }

    func checkNew(path: String, mtime: String) throws(XarError) {
        guard !finished else {
            throw XarError(
                rule: nil, "the archive is already finished", entry: path, advice: "add entries before finish(to:)")
        }
        guard isISO8601Timestamp(mtime) else {
            throw XarError(
                rule: nil, "mtime \"\(mtime)\" is not YYYY-MM-DDTHH:MM:SSZ", entry: path,
                advice: "give an ISO-8601 UTC time such as 2024-01-01T00:00:00Z")
        }
        let components = PathText.components(path)
        guard components.count <= Self.maxDepth,
            components.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." && !$0.utf8.contains(0) })
        else {
            throw XarError(
                rule: nil, "the path is empty, absolute, too deep or has an empty, '.' or '..' component", entry: path,
                advice: "give a relative path such as NAME.pkg/Payload")
        }
        guard indexByPath[path] == nil else {
            throw XarError(rule: nil, "the path was already added", entry: path, advice: "add each path once")
        }
        if components.count > 1 {
            let parent = components.dropLast().joined(separator: "/")
            guard let index = indexByPath[parent], entries[index].type == .directory else {
                throw XarError(
                    rule: nil, "the parent directory \"\(parent)\" was not added first", entry: path,
                    advice: "add parent directories before their children")
            }
        }
    }

    func add(
        path: String, type: XarFileType, mode: UInt32, mtime: String, linkTarget: String?,
        data: XarData?
    ) throws(XarError) {
        try checkNew(path: path, mtime: mtime)
        let components = PathText.components(path, omittingEmpty: true)
        let index = entries.count
        entries.append(
            Entry(
                id: UInt64(index + 1), name: String(components.last ?? ""), path: path, type: type,
                mode: mode & 0o7777, mtime: sharedMtime(mtime), linkTarget: linkTarget, data: data))
        indexByPath[path] = index
        if components.count > 1, let parent = indexByPath[components.dropLast().joined(separator: "/")] {
            entries[parent].children.append(index)
        } else {
            topLevel.append(index)
        }
    }

    /// `mtime` as the string already kept for it, if any.
    private func sharedMtime(_ mtime: String) -> String {
        if let known = mtimes.firstIndex(of: mtime) { return mtimes[known] }
        if mtimes.count < 4096 { mtimes.insert(mtime) }
        return mtime
    }

    /// Lists the entries at `paths` first, in that order, among their siblings in the TOC.
    /// The heap keeps the order data was added in; ids follow TOC order.
    package func order(_ paths: [String]) {
        let rank = Dictionary(paths.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        func sorted(_ list: [Int]) -> [Int] {
            list.enumerated().sorted { a, b in
                let ra = rank[entries[a.element].path] ?? Int.max
                let rb = rank[entries[b.element].path] ?? Int.max
                return ra != rb ? ra < rb : a.offset < b.offset
            }.map(\.element)
        }
        topLevel = sorted(topLevel)
        for i in entries.indices { entries[i].children = sorted(entries[i].children) }
    }

    /// Numbers the entries 1, 2, 3… in the order the TOC lists them.
    func renumber() {
        var next: UInt64 = 1
        var stack = topLevel.reversed() as [Int]
        while let index = stack.popLast() {
            entries[index].id = next
            next += 1
            stack.append(contentsOf: entries[index].children.reversed())
        }
    }

    /// Where heap offset 0 of the data (after the TOC digest) sits in the heap file.
    var heapFileOffset: UInt64 {
        directStart.map { $0 + UInt64(options.checksum.byteCount) } ?? 0
    }
}
