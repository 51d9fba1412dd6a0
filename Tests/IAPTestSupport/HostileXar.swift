import Foundation
import IAPCompression
import IAPCrypto
import IAPSystem

/// How a hand-made `<data>` element spells one of its checksums.
package enum ChecksumSpec: Equatable {
    /// The right SHA-1 of the bytes.
    case correct
    /// No element at all.
    case omitted
    /// A SHA-1 of other bytes.
    case wrong
}

/// One `<file>` of a hand-made xar TOC; every field can be made wrong on purpose.
package struct XarNode {
    package var name: String
    /// The `<type>` text: file, directory, symlink, hardlink, fifo, "character special"…
    package var type = "file"
    /// The id attribute; nil numbers the entries 1, 2, 3… in document order.
    package var id: String?
    package var mode = "0644"
    /// A file's decoded bytes (nil: no `<data>`).
    package var content: [UInt8]?
    /// `application/x-gzip` compresses `content` with zlib; anything else stores it as it is.
    package var encoding = "application/x-gzip"
    /// Replaces the bytes written to the heap (the checksums still describe what is written).
    package var storedBytes: [UInt8]?
    /// Replaces `<size>` (the decoded length).
    package var declaredSize: UInt64?
    package var archivedChecksum = ChecksumSpec.correct
    package var extractedChecksum = ChecksumSpec.correct
    /// A symlink's `<link>` text.
    package var linkTarget: String?
    /// The `link` attribute of `<type>` for hard links ("original" or an id).
    package var hardLink: String?
    package var children: [XarNode] = []
    /// Replaces the `<name>` element(s) written for `name` (encoded or repeated names).
    package var nameXML: String?

    /// A node with every field given or left at its default.
    package init(
        name: String, type: String = "file", id: String? = nil, mode: String = "0644", content: [UInt8]? = nil,
        encoding: String = "application/x-gzip", storedBytes: [UInt8]? = nil, declaredSize: UInt64? = nil,
        archivedChecksum: ChecksumSpec = .correct, extractedChecksum: ChecksumSpec = .correct,
        linkTarget: String? = nil, hardLink: String? = nil, children: [XarNode] = [], nameXML: String? = nil
    ) {
        self.name = name
        self.type = type
        self.id = id
        self.mode = mode
        self.content = content
        self.encoding = encoding
        self.storedBytes = storedBytes
        self.declaredSize = declaredSize
        self.archivedChecksum = archivedChecksum
        self.extractedChecksum = extractedChecksum
        self.linkTarget = linkTarget
        self.hardLink = hardLink
        self.children = children
        self.nameXML = nameXML
    }

    /// A directory holding `children`.
    package static func directory(_ name: String, mode: String = "0755", _ children: [XarNode] = []) -> XarNode {
        XarNode(name: name, type: "directory", mode: mode, children: children)
    }

    /// A regular file with `content`.
    package static func file(_ name: String, _ content: [UInt8], mode: String = "0644") -> XarNode {
        XarNode(name: name, mode: mode, content: content)
    }

    /// A regular file with text content.
    package static func file(_ name: String, text: String, mode: String = "0644") -> XarNode {
        .file(name, Array(text.utf8), mode: mode)
    }

    /// A symbolic link to `target`.
    package static func symlink(_ name: String, to target: String) -> XarNode {
        XarNode(name: name, type: "symlink", mode: "0755", linkTarget: target)
    }
}

/// The one hand-made xar writer of the test fixtures: writes archives byte by byte — header, TOC
/// text, heap — so any part can be broken. The heap starts with the digest of the compressed TOC
/// (heap offset 0, SHA-1 unless told), then file data.
package struct HostileXar {
    package var nodes: [XarNode]
    package var magic: UInt32 = 0x7861_7221
    package var headerSize: UInt16 = 28
    package var version: UInt16 = 1
    package var checksumCode: UInt32 = 1
    /// The TOC digest's algorithm (its `<checksum>` style and size, and the heap's first bytes).
    package var tocDigest = DigestAlgorithm.sha1
    /// The TOC `<checksum>` style text (default: the algorithm's name).
    package var tocDigestStyle: String?
    /// Bytes written after the fixed 28 header bytes (xar 1.6.1's algorithm name and padding).
    package var headerExtra: [UInt8] = []
    /// The algorithm of every file's archived and extracted checksums.
    package var fileDigest = DigestAlgorithm.sha1
    /// The file checksums' style text (default: the algorithm's name).
    package var fileDigestStyle: String?
    /// Edits the TOC XML text before it is compressed.
    package var editTOC: (String) -> String = { $0 }
    /// Edits the compressed TOC bytes (the declared length follows the edit unless overridden).
    package var editCompressedTOC: ([UInt8]) -> [UInt8] = { $0 }
    /// Replaces the declared compressed TOC length.
    package var declaredCompressedLength: UInt64?
    /// Added to the declared compressed TOC length (the bytes themselves are unchanged).
    package var compressedLengthDelta = 0
    /// Replaces the declared uncompressed TOC length.
    package var declaredUncompressedLength: UInt64?
    /// Writes a TOC digest of other bytes.
    package var wrongTOCDigest = false
    /// Edits the heap (TOC digest included) before it is written.
    package var editHeap: ([UInt8]) -> [UInt8] = { $0 }
    /// Writes the TOC text on one line, without indentation (the elements are the same).
    package var compact = false

    package init(_ nodes: [XarNode]) { self.nodes = nodes }

    /// The archive's bytes.
    package func bytes() throws -> [UInt8] {
        var heap: [UInt8] = []
        var nextID = 1
        var body = ""
        for node in nodes {
            try append(node, depth: 2, heapBase: tocDigest.byteCount, heap: &heap, nextID: &nextID, to: &body)
        }
        let xml =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + line(0, "<xar>") + line(1, "<toc>")
            + line(2, "<checksum style=\"\(tocDigestStyle ?? tocDigest.rawValue)\">") + line(3, "<offset>0</offset>")
            + line(3, "<size>\(tocDigest.byteCount)</size>") + line(2, "</checksum>")
            + line(2, "<creation-time>2024-01-01T00:00:00Z</creation-time>") + body + line(1, "</toc>")
            + line(0, "</xar>") + (compact ? "\n" : "")
        let text = Array(editTOC(xml).utf8)
        let compressed = editCompressedTOC(try Deflater.compress(text, format: .zlib))
        let digest = DigestHasher.digest(tocDigest, of: wrongTOCDigest ? compressed + [0] : compressed)
        var header: [UInt8] = []
        header.appendBE(magic)
        header.appendBE(headerSize)
        header.appendBE(version)
        header.appendBE(declaredCompressedLength ?? UInt64(compressed.count + compressedLengthDelta))
        header.appendBE(declaredUncompressedLength ?? UInt64(text.count))
        header.appendBE(checksumCode)
        return header + headerExtra + compressed + editHeap(digest + heap)
    }

    /// Writes the archive to `path`.
    package func write(to path: String) throws {
        try Data(bytes()).write(to: URL(fileURLWithPath: path))
    }

    /// One element of the TOC text at `depth`: indented on a line of its own, or bare when compact.
    private func line(_ depth: Int, _ text: String) -> String {
        compact ? text : String(repeating: " ", count: depth) + text + "\n"
    }

    private func append(
        _ node: XarNode, depth: Int, heapBase: Int, heap: inout [UInt8], nextID: inout Int,
        to xml: inout String
    ) throws {
        let id = node.id ?? String(nextID)
        nextID += 1
        xml += line(depth, "<file id=\"\(escape(id))\">")
        xml += line(depth + 1, node.nameXML ?? "<name>\(escape(node.name))</name>")
        xml += line(
            depth + 1, "<type\(node.hardLink.map { " link=\"\(escape($0))\"" } ?? "")>\(escape(node.type))</type>")
        if let target = node.linkTarget { xml += line(depth + 1, "<link type=\"broken\">\(escape(target))</link>") }
        xml +=
            line(depth + 1, "<mode>\(node.mode)</mode>") + line(depth + 1, "<uid>0</uid>")
            + line(depth + 1, "<gid>0</gid>")
        if let content = node.content {
            let encoded =
                node.encoding == "application/x-gzip" ? try Deflater.compress(content, format: .zlib) : content
            let stored = node.storedBytes ?? encoded
            let offset = heapBase + heap.count
            heap += stored
            xml += line(depth + 1, "<data>") + line(depth + 2, "<offset>\(offset)</offset>")
            xml += line(depth + 2, "<length>\(stored.count)</length>")
            xml += line(depth + 2, "<size>\(node.declaredSize ?? UInt64(content.count))</size>")
            xml += line(depth + 2, "<encoding style=\"\(escape(node.encoding))\"/>")
            xml += checksum("archived-checksum", node.archivedChecksum, of: stored, depth: depth + 2)
            xml += checksum("extracted-checksum", node.extractedChecksum, of: content, depth: depth + 2)
            xml += line(depth + 1, "</data>")
        }
        for child in node.children {
            try append(child, depth: depth + 1, heapBase: heapBase, heap: &heap, nextID: &nextID, to: &xml)
        }
        xml += line(depth, "</file>")
    }

    private func checksum(_ element: String, _ spec: ChecksumSpec, of bytes: [UInt8], depth: Int) -> String {
        switch spec {
        case .omitted: return ""
        case .correct, .wrong:
            let digest = DigestHasher.digest(fileDigest, of: spec == .wrong ? bytes + [1] : bytes)
            let style = fileDigestStyle ?? fileDigest.rawValue
            return line(depth, "<\(element) style=\"\(style)\">\(Hex.encode(digest))</\(element)>")
        }
    }

    private func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
