import IAPCompression
import IAPCrypto
import IAPRules
import IAPSystem
import XMLKit

/// Finishing: the TOC written from the entries, compressed, and placed before the heap.
extension XarWriter {
    /// Writes header, compressed TOC and heap to `output` at its current position.
    package func finish(to output: FileDescriptor) throws(XarError) {
        guard !finished, directStart == nil else {
            throw XarError(
                rule: nil, "the archive is already finished, or writes in place",
                advice: "create a new writer for another archive")
        }
        finished = true
        renumber()
        let deflater = Deflater(format: .zlib, level: options.compressionLevel)
        var compressed: [UInt8] = []
        var text = TOCText(deflater: deflater, limit: options.maxTOCBytes) { compressed.append(contentsOf: $0) }
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
    package func finishInPlace() throws(XarError) {
        guard !finished, let start = directStart else {
            throw XarError(
                rule: nil, "the archive is already finished, or does not write in place", advice: "use finish(to:)")
        }
        finished = true
        renumber()
        var xml: [UInt8] = []
        var text = TOCText(deflater: nil, limit: options.maxTOCBytes) { xml.append(contentsOf: $0) }
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
        let temporary = try Self.temporaryHeap(in: PathText.parent(of: output.path))
        try xarIO("moving the heap of \(output.path)") {
            try temporary.append(from: output, offset: heapFileOffset, count: heapLength)
            try output.truncate(to: 0)
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
        guard let target = entry.linkTarget, !PathText.isAbsolute(target) else { return "broken" }
        var parts = Array(PathText.components(entry.path, omittingEmpty: true).dropLast())
        for part in PathText.components(target, omittingEmpty: true) {
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
    let limit: UInt64
    let sink: (UnsafeRawBufferPointer) throws -> Void
    var buffer: [UInt8] = []
    var length: UInt64 = 0

    init(deflater: Deflater?, limit: UInt64, sink: @escaping (UnsafeRawBufferPointer) throws -> Void) {
        self.deflater = deflater
        self.limit = limit
        self.sink = sink
    }

    mutating func append(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        length += UInt64(text.utf8.count)
        guard length <= limit else {
            throw XarError(
                rule: Rule.xarTocTooLarge,
                "the table of contents grows past \(limit) bytes, more than readers accept",
                advice: "a bare tree package holds about 100,000 entries at most; build the product layout "
                    + "(the default), whose Payload holds any number, or split the content")
        }
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
