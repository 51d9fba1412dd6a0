import IAPCore
import XMLKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a xar archive reproducibly: the same entries and options give the same bytes.
/// File data is streamed into a temporary heap file, never held in memory.
public final class XarWriter {
    /// One entry as it will appear in the TOC.
    private struct Entry {
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

    private let options: XarWriterOptions
    private var heap: FileDescriptor
    /// Set when the heap is written straight into the output, after this many reserved bytes.
    private var directStart: UInt64?
    private var heapLength: UInt64 = 0
    private var entries: [Entry] = []
    private var topLevel: [Int] = []
    private var indexByPath: [String: Int] = [:]
    private var finished = false
    private static let maxDepth = 256

    /// A writer whose heap lives in an unlinked temporary file inside `temporaryDirectory`;
    /// `finish(to:)` then writes header, TOC and heap to the output.
    public init(temporaryDirectory: String, options: XarWriterOptions) throws(XarError) {
        try Self.check(options)
        self.options = options
        heap = try Self.temporaryHeap(in: temporaryDirectory)
    }

    /// A writer that streams the heap straight into `output` after `reservedBytes` bytes kept for the
    /// header and the TOC, so the data is written once; `finishInPlace()` fills the reserved room
    /// (the TOC is padded to fit exactly). For archives with a small TOC, such as a product archive.
    /// `output` must be open for reading too (for the rare case the TOC outgrows the room).
    public init(directTo output: FileDescriptor, reservedBytes: Int, options: XarWriterOptions) throws(XarError) {
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

    private static func check(_ options: XarWriterOptions) throws(XarError) {
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

    private static func temporaryHeap(in temporaryDirectory: String) throws(XarError) -> FileDescriptor {
        var template = Array((temporaryDirectory + "/.xar-heap-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        template.removeLast()
        guard fd >= 0 else {
            throw XarError.io(SystemError("mkstemp", path: temporaryDirectory), "creating the heap file")
        }
        let path = String(decoding: template.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        unlink(path)
        return FileDescriptor(owning: fd, path: path)
    }

    // MARK: - Adding entries

    /// Adds a directory; its parent must already be added.
    public func addDirectory(path: String, mode: UInt32 = 0o755, mtime: String) throws(XarError) {
        try add(path: path, type: .directory, mode: mode, mtime: mtime, linkTarget: nil, data: nil)
    }

    /// Adds a symbolic link to `target`; its parent must already be added.
    public func addSymlink(path: String, target: String, mode: UInt32 = 0o755, mtime: String) throws(XarError) {
        guard !target.isEmpty else {
            throw XarError(rule: nil, "the symlink has an empty target", entry: path, advice: "give the link a target")
        }
        try add(path: path, type: .symlink, mode: mode, mtime: mtime, linkTarget: target, data: nil)
    }

    /// Adds a regular file whose bytes `body` hands, in pieces, to the function it is given.
    public func addFile(
        path: String, mode: UInt32 = 0o644, mtime: String, encoding: XarWriterEncoding,
        body: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void
    ) throws {
        try checkNew(path: path, mtime: mtime)
        let data: XarData
        do {
            data = try writeData(encoding: encoding, body: body)
        } catch {
            // Drop the partial bytes so the next entry starts where the heap really ends.
            let end = off_t(heapFileOffset + heapLength)
            if ftruncate(heap.rawValue, end) != 0 || lseek(heap.rawValue, end, SEEK_SET) < 0 {
                finished = true
            }
            throw error
        }
        try add(path: path, type: .file, mode: mode, mtime: mtime, linkTarget: nil, data: data)
    }

    /// Adds a regular file whose whole content is in memory (a Bom, a PackageInfo): zlib data is made
    /// in one libdeflate call, at the level matching the writer's zlib level.
    public func addFile(path: String, mode: UInt32 = 0o644, mtime: String, encoding: XarWriterEncoding, bytes: [UInt8])
        throws
    {
        guard encoding == .zlib else {
            return try addFile(path: path, mode: mode, mtime: mtime, encoding: encoding) { sink in
                try bytes.withUnsafeBytes { try sink($0) }
            }
        }
        try checkNew(path: path, mtime: mtime)
        let compressor = BlockCompressor(level: min(12, options.compressionLevel + 1))
        var stored = [UInt8](repeating: 0, count: compressor.zlibBound(bytes.count))
        let count = bytes.withUnsafeBytes { input in stored.withUnsafeMutableBytes { compressor.zlib(input, into: $0) }
        }
        guard count > 0 else {
            throw XarError(rule: nil, "libdeflate could not compress the entry", entry: path, advice: "report this")
        }
        stored.removeLast(stored.count - count)
        try xarIO("writing the heap") { try heap.write(stored) }
        let style = options.checksum.rawValue
        let data = XarData(
            offset: heapLength, length: UInt64(count), size: UInt64(bytes.count), encoding: .zlib,
            archivedChecksum: XarChecksum(style: style, digest: DigestHasher.digest(options.checksum, of: stored)),
            extractedChecksum: XarChecksum(style: style, digest: DigestHasher.digest(options.checksum, of: bytes)))
        heapLength += UInt64(count)
        try add(path: path, type: .file, mode: mode, mtime: mtime, linkTarget: nil, data: data)
    }

    /// Adds a regular file with the bytes read from `source` (from its current position to its end).
    public func addFile(
        path: String, mode: UInt32 = 0o644, mtime: String, encoding: XarWriterEncoding,
        contentsOf source: FileDescriptor
    ) throws {
        try addFile(path: path, mode: mode, mtime: mtime, encoding: encoding) { write in
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
            defer { buffer.deallocate() }
            while true {
                let n = try source.readSequential(into: buffer)
                if n == 0 { break }
                try write(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
            }
        }
    }

    private func writeData(
        encoding: XarWriterEncoding,
        body: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void
    ) throws -> XarData {
        let archived = DigestHasher(options.checksum)
        let extracted = DigestHasher(options.checksum)
        let start = heapLength
        var size: UInt64 = 0
        let heap = self.heap
        var written: UInt64 = 0
        let store: (UnsafeRawBufferPointer) throws -> Void = { bytes in
            archived.update(bytes)
            try heap.write(bytes)
            written += UInt64(bytes.count)
        }
        switch encoding {
        case .stored:
            try body { bytes in
                size += UInt64(bytes.count)
                try store(bytes)
            }
        case .zlib:
            let deflater = Deflater(format: .zlib, level: options.compressionLevel)
            try body { bytes in
                extracted.update(bytes)
                size += UInt64(bytes.count)
                try deflater.compress(bytes, finish: false, into: store)
            }
            try deflater.compress(UnsafeRawBufferPointer(start: nil, count: 0), finish: true, into: store)
        }
        heapLength += written
        let style = options.checksum.rawValue
        let archivedDigest = archived.finish()
        // Stored bytes are the extracted bytes: one digest serves both.
        let extractedDigest = encoding == .stored ? archivedDigest : extracted.finish()
        return XarData(
            offset: start, length: written, size: size,
            encoding: encoding == .zlib ? .zlib : .stored,
            archivedChecksum: XarChecksum(style: style, digest: archivedDigest),
            extractedChecksum: XarChecksum(style: style, digest: extractedDigest))
    }

    private func checkNew(path: String, mtime: String) throws(XarError) {
        guard !finished else {
            throw XarError(
                rule: nil, "the archive is already finished", entry: path, advice: "add entries before finish(to:)")
        }
        guard isISO8601Timestamp(mtime) else {
            throw XarError(
                rule: nil, "mtime \"\(mtime)\" is not YYYY-MM-DDTHH:MM:SSZ", entry: path,
                advice: "give an ISO-8601 UTC time such as 2024-01-01T00:00:00Z")
        }
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
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

    private func add(
        path: String, type: XarFileType, mode: UInt32, mtime: String, linkTarget: String?,
        data: XarData?
    ) throws(XarError) {
        try checkNew(path: path, mtime: mtime)
        let components = path.split(separator: "/")
        let index = entries.count
        entries.append(
            Entry(
                id: UInt64(index + 1), name: String(components.last ?? ""), path: path, type: type,
                mode: mode & 0o7777, mtime: mtime, linkTarget: linkTarget, data: data))
        indexByPath[path] = index
        if components.count > 1, let parent = indexByPath[components.dropLast().joined(separator: "/")] {
            entries[parent].children.append(index)
        } else {
            topLevel.append(index)
        }
    }

    /// Lists the entries at `paths` first, in that order, among their siblings in the TOC.
    /// The heap keeps the order data was added in; ids follow TOC order.
    public func order(_ paths: [String]) {
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
    private func renumber() {
        var next: UInt64 = 1
        var stack = topLevel.reversed() as [Int]
        while let index = stack.popLast() {
            entries[index].id = next
            next += 1
            stack.append(contentsOf: entries[index].children.reversed())
        }
    }

    /// Where heap offset 0 of the data (after the TOC digest) sits in the heap file.
    private var heapFileOffset: UInt64 {
        directStart.map { $0 + UInt64(options.checksum.byteCount) } ?? 0
    }

    // MARK: - Finishing

    /// Writes header, compressed TOC and heap to `output` at its current position.
    public func finish(to output: FileDescriptor) throws(XarError) {
        guard !finished, directStart == nil else {
            throw XarError(
                rule: nil, "the archive is already finished, or writes in place",
                advice: "create a new writer for another archive")
        }
        finished = true
        renumber()
        let deflater = Deflater(format: .zlib, level: options.compressionLevel)
        var compressed: [UInt8] = []
        var text = TOCText(deflater: deflater) { compressed.append(contentsOf: $0) }
        try xarIO("compressing the TOC") { try writeTOC(to: &text) }
        let header = XarHeader(
            tocCompressedLength: UInt64(compressed.count), tocUncompressedLength: text.length,
            checksumAlgorithmCode: options.headerChecksumCode)
        let digest = DigestHasher.digest(options.checksum, of: compressed)
        try xarIO("writing \(output.path)") {
            try output.write(header.serialized())
            try output.write(compressed)
            try output.write(digest)
            try output.append(from: heap, offset: 0, count: heapLength)
        }
    }

    /// Completes an archive whose heap was written in place: the header, the TOC padded to fill the
    /// reserved room exactly, and the TOC digest. If the TOC outgrew the room, the heap is moved.
    public func finishInPlace() throws(XarError) {
        guard !finished, let start = directStart else {
            throw XarError(
                rule: nil, "the archive is already finished, or does not write in place", advice: "use finish(to:)")
        }
        finished = true
        renumber()
        var xml: [UInt8] = []
        var text = TOCText(deflater: nil) { xml.append(contentsOf: $0) }
        try xarIO("writing the TOC") { try writeTOC(to: &text) }
        let output = heap
        if let padded = PaddedZlibStream.make(
            xml, level: options.compressionLevel, length: Int(start) - XarHeader.byteCount)
        {
            let header = XarHeader(
                tocCompressedLength: UInt64(padded.bytes.count),
                tocUncompressedLength: UInt64(padded.uncompressedLength),
                checksumAlgorithmCode: options.headerChecksumCode)
            try xarIO("writing \(output.path)") {
                try output.write(header.serialized(), at: 0)
                try output.write(padded.bytes, at: UInt64(XarHeader.byteCount))
                try output.write(DigestHasher.digest(options.checksum, of: padded.bytes), at: start)
            }
            return
        }
        // Rare: the TOC does not fit the reserved room. Move the data aside and write the usual way.
        let folder = output.path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(
            separator: "/")
        let temporary = try Self.temporaryHeap(in: folder.isEmpty ? "." : folder)
        try xarIO("moving the heap of \(output.path)") {
            try temporary.append(from: output, offset: heapFileOffset, count: heapLength)
            guard ftruncate(output.rawValue, 0) == 0 else { throw SystemError("truncate", path: output.path) }
            try output.seek(to: 0)
        }
        heap = temporary
        directStart = nil
        finished = false
        try finish(to: output)
    }

    /// The whole TOC document, in pieces.
    private func writeTOC(to text: inout TOCText) throws {
        let digestSize = UInt64(options.checksum.byteCount)
        try text.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<xar>\n <toc>\n")
        try text.append(
            "  <checksum style=\"\(options.checksum.rawValue)\">\n   <offset>0</offset>\n   <size>\(digestSize)</size>\n  </checksum>\n"
        )
        try text.append("  <creation-time>\(options.creationTime)</creation-time>\n")
        for index in topLevel { try appendFile(index, depth: 2, heapBase: digestSize, to: &text) }
        try text.append(" </toc>\n</xar>\n")
        try text.finish()
    }

    private func appendFile(_ index: Int, depth: Int, heapBase: UInt64, to text: inout TOCText) throws {
        let entry = entries[index]
        let pad = String(repeating: " ", count: depth)
        var xml = "\(pad)<file id=\"\(entry.id)\">\n"
        xml += "\(pad) <name>\(XMLEscaping.escape(entry.name))</name>\n"
        xml += "\(pad) <type>\(entry.type.xarName)</type>\n"
        if let target = entry.linkTarget {
            xml += "\(pad) <link type=\"\(linkType(of: entry))\">\(XMLEscaping.escape(target))</link>\n"
        }
        xml += "\(pad) <mode>0\(String(entry.mode, radix: 8))</mode>\n"
        xml += "\(pad) <uid>0</uid>\n\(pad) <gid>0</gid>\n\(pad) <user>root</user>\n\(pad) <group>wheel</group>\n"
        xml += "\(pad) <mtime>\(entry.mtime)</mtime>\n"
        if let data = entry.data {
            let style = options.checksum.rawValue
            xml += "\(pad) <data>\n"
            xml += "\(pad)  <offset>\(heapBase + data.offset)</offset>\n"
            xml += "\(pad)  <length>\(data.length)</length>\n"
            xml += "\(pad)  <size>\(data.size)</size>\n"
            xml += "\(pad)  <encoding style=\"\(data.encoding.style)\"/>\n"
            xml +=
                "\(pad)  <archived-checksum style=\"\(style)\">\(Hex.encode(data.archivedChecksum?.digest ?? []))</archived-checksum>\n"
            xml +=
                "\(pad)  <extracted-checksum style=\"\(style)\">\(Hex.encode(data.extractedChecksum?.digest ?? []))</extracted-checksum>\n"
            xml += "\(pad) </data>\n"
        }
        try text.append(xml)
        for child in entry.children { try appendFile(child, depth: depth + 1, heapBase: heapBase, to: &text) }
        try text.append("\(pad)</file>\n")
    }

    /// `file`, `directory` or `broken`, by resolving the target among the archive's own entries.
    private func linkType(of entry: Entry) -> String {
        guard let target = entry.linkTarget, !target.hasPrefix("/") else { return "broken" }
        var parts = entry.path.split(separator: "/").dropLast().map(String.init)
        for part in target.split(separator: "/") {
            switch part {
            case ".": continue
            case "..":
                guard !parts.isEmpty else { return "broken" }
                parts.removeLast()
            default: parts.append(String(part))
            }
        }
        guard let index = indexByPath[parts.joined(separator: "/")] else { return "broken" }
        switch entries[index].type {
        case .directory: return "directory"
        case .file: return "file"
        default: return "broken"
        }
    }
}

/// TOC text fed to a deflater in pieces (or, without one, handed over as it is), counting its
/// uncompressed length.
private struct TOCText {
    let deflater: Deflater?
    let sink: (UnsafeRawBufferPointer) throws -> Void
    var buffer: [UInt8] = []
    var length: UInt64 = 0

    init(deflater: Deflater?, sink: @escaping (UnsafeRawBufferPointer) throws -> Void) {
        self.deflater = deflater
        self.sink = sink
    }

    mutating func append(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        length += UInt64(text.utf8.count)
        if buffer.count >= 64 * 1024 { try flush(finish: false) }
    }

    mutating func finish() throws { try flush(finish: true) }

    private mutating func flush(finish: Bool) throws {
        let pending = buffer
        buffer.removeAll(keepingCapacity: true)
        if let deflater {
            try pending.withUnsafeBytes { try deflater.compress($0, finish: finish, into: sink) }
        } else {
            try pending.withUnsafeBytes { try sink($0) }
        }
    }
}
