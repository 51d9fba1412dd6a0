import BomKit
import Foundation
import IAPCompression
import IAPCrypto
import IAPKit
import IAPSystem

/// How a hand-made `<data>` element spells one of its checksums.
enum ChecksumSpec: Equatable {
    /// The right SHA-1 of the bytes.
    case correct
    /// No element at all.
    case omitted
    /// A SHA-1 of other bytes.
    case wrong
}

/// One `<file>` of a hand-made xar TOC; every field can be made wrong on purpose.
struct XarNode {
    var name: String
    /// The `<type>` text: file, directory, symlink, hardlink, fifo, "character special"…
    var type = "file"
    /// The id attribute; nil numbers the entries 1, 2, 3… in document order.
    var id: String?
    var mode = "0644"
    /// A file's decoded bytes (nil: no `<data>`).
    var content: [UInt8]?
    /// `application/x-gzip` compresses `content` with zlib; anything else stores it as it is.
    var encoding = "application/x-gzip"
    /// Replaces the bytes written to the heap (the checksums still describe what is written).
    var storedBytes: [UInt8]?
    /// Replaces `<size>` (the decoded length).
    var declaredSize: UInt64?
    var archivedChecksum = ChecksumSpec.correct
    var extractedChecksum = ChecksumSpec.correct
    /// A symlink's `<link>` text.
    var linkTarget: String?
    /// The `link` attribute of `<type>` for hard links ("original" or an id).
    var hardLink: String?
    var children: [XarNode] = []
    /// Replaces the `<name>` element(s) written for `name` (encoded or repeated names).
    var nameXML: String?

    /// A directory holding `children`.
    static func directory(_ name: String, mode: String = "0755", _ children: [XarNode] = []) -> XarNode {
        XarNode(name: name, type: "directory", mode: mode, children: children)
    }

    /// A regular file with `content`.
    static func file(_ name: String, _ content: [UInt8], mode: String = "0644") -> XarNode {
        XarNode(name: name, mode: mode, content: content)
    }

    /// A regular file with text content.
    static func file(_ name: String, text: String, mode: String = "0644") -> XarNode {
        .file(name, Array(text.utf8), mode: mode)
    }

    /// A symbolic link to `target`.
    static func symlink(_ name: String, to target: String) -> XarNode {
        XarNode(name: name, type: "symlink", mode: "0755", linkTarget: target)
    }
}

/// Writes xar archives byte by byte — header, TOC text, heap — so any part can be broken.
/// The heap starts with the digest of the compressed TOC (heap offset 0, SHA-1 unless told), then file data.
struct HostileXar {
    var nodes: [XarNode]
    var magic: UInt32 = 0x7861_7221
    var headerSize: UInt16 = 28
    var version: UInt16 = 1
    var checksumCode: UInt32 = 1
    /// The TOC digest's algorithm (its `<checksum>` style and size, and the heap's first bytes).
    var tocDigest = DigestAlgorithm.sha1
    /// The TOC `<checksum>` style text (default: the algorithm's name).
    var tocDigestStyle: String?
    /// Bytes written after the fixed 28 header bytes (xar 1.6.1's algorithm name and padding).
    var headerExtra: [UInt8] = []
    /// The algorithm of every file's archived and extracted checksums.
    var fileDigest = DigestAlgorithm.sha1
    /// The file checksums' style text (default: the algorithm's name).
    var fileDigestStyle: String?
    /// Edits the TOC XML text before it is compressed.
    var editTOC: (String) -> String = { $0 }
    /// Edits the compressed TOC bytes (the declared length follows the edit unless overridden).
    var editCompressedTOC: ([UInt8]) -> [UInt8] = { $0 }
    /// Replaces the declared compressed TOC length.
    var declaredCompressedLength: UInt64?
    /// Replaces the declared uncompressed TOC length.
    var declaredUncompressedLength: UInt64?
    /// Writes a TOC digest of other bytes.
    var wrongTOCDigest = false
    /// Edits the heap (TOC digest included) before it is written.
    var editHeap: ([UInt8]) -> [UInt8] = { $0 }

    init(_ nodes: [XarNode]) { self.nodes = nodes }

    /// The archive's bytes.
    func bytes() throws -> [UInt8] {
        var heap: [UInt8] = []
        var nextID = 1
        var body = ""
        for node in nodes {
            try append(node, depth: 2, heapBase: tocDigest.byteCount, heap: &heap, nextID: &nextID, to: &body)
        }
        let xml =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<xar>\n <toc>\n"
            + "  <checksum style=\"\(tocDigestStyle ?? tocDigest.rawValue)\">\n   <offset>0</offset>\n   <size>\(tocDigest.byteCount)</size>\n  </checksum>\n"
            + "  <creation-time>2024-01-01T00:00:00Z</creation-time>\n" + body + " </toc>\n</xar>\n"
        let text = Array(editTOC(xml).utf8)
        let compressed = editCompressedTOC(try Deflater.compress(text, format: .zlib))
        let digest = DigestHasher.digest(tocDigest, of: wrongTOCDigest ? compressed + [0] : compressed)
        var header: [UInt8] = []
        header.appendBE(magic)
        header.appendBE(headerSize)
        header.appendBE(version)
        header.appendBE(declaredCompressedLength ?? UInt64(compressed.count))
        header.appendBE(declaredUncompressedLength ?? UInt64(text.count))
        header.appendBE(checksumCode)
        return header + headerExtra + compressed + editHeap(digest + heap)
    }

    /// Writes the archive to `path`.
    func write(to path: String) throws {
        try Data(bytes()).write(to: URL(fileURLWithPath: path))
    }

    private func append(
        _ node: XarNode, depth: Int, heapBase: Int, heap: inout [UInt8], nextID: inout Int,
        to xml: inout String
    ) throws {
        let pad = String(repeating: " ", count: depth)
        let id = node.id ?? String(nextID)
        nextID += 1
        xml += "\(pad)<file id=\"\(escape(id))\">\n\(pad) \(node.nameXML ?? "<name>\(escape(node.name))</name>")\n"
        xml += "\(pad) <type\(node.hardLink.map { " link=\"\(escape($0))\"" } ?? "")>\(escape(node.type))</type>\n"
        if let target = node.linkTarget { xml += "\(pad) <link type=\"broken\">\(escape(target))</link>\n" }
        xml += "\(pad) <mode>\(node.mode)</mode>\n\(pad) <uid>0</uid>\n\(pad) <gid>0</gid>\n"
        if let content = node.content {
            let encoded =
                node.encoding == "application/x-gzip" ? try Deflater.compress(content, format: .zlib) : content
            let stored = node.storedBytes ?? encoded
            let offset = heapBase + heap.count
            heap += stored
            xml += "\(pad) <data>\n\(pad)  <offset>\(offset)</offset>\n\(pad)  <length>\(stored.count)</length>\n"
            xml += "\(pad)  <size>\(node.declaredSize ?? UInt64(content.count))</size>\n"
            xml += "\(pad)  <encoding style=\"\(escape(node.encoding))\"/>\n"
            xml += checksum("archived-checksum", node.archivedChecksum, of: stored, pad: pad)
            xml += checksum("extracted-checksum", node.extractedChecksum, of: content, pad: pad)
            xml += "\(pad) </data>\n"
        }
        for child in node.children {
            try append(child, depth: depth + 1, heapBase: heapBase, heap: &heap, nextID: &nextID, to: &xml)
        }
        xml += "\(pad)</file>\n"
    }

    private func checksum(_ element: String, _ spec: ChecksumSpec, of bytes: [UInt8], pad: String) -> String {
        switch spec {
        case .omitted: return ""
        case .correct, .wrong:
            let digest = DigestHasher.digest(fileDigest, of: spec == .wrong ? bytes + [1] : bytes)
            return
                "\(pad)  <\(element) style=\"\(fileDigestStyle ?? fileDigest.rawValue)\">\(Hex.encode(digest))</\(element)>\n"
        }
    }

    private func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}

/// Bare-tree packages: ContentInfo.plist and Contents/ as xar entries.
enum HostileTree {
    /// A valid tree whose Contents/ holds `contents` (plus readme.txt unless `contents` is given).
    static func nodes(
        plist: String = Fixtures.plist(product: "com.example.test", version: "1.0"),
        contents: [XarNode] = [.file("readme.txt", text: "hello\n")]
    ) -> [XarNode] {
        [.file("ContentInfo.plist", text: plist), .directory("Contents", contents)]
    }

    /// Writes a tree package to `path`, letting `edit` change the xar first.
    static func write(_ nodes: [XarNode], to path: String, edit: (inout HostileXar) -> Void = { _ in }) throws {
        var xar = HostileXar(nodes)
        edit(&xar)
        try xar.write(to: path)
    }
}

/// Sample bytes for the executable-code rules.
enum CodeSamples {
    /// A thin 64-bit Mach-O header (little-endian magic 0xfeedfacf as stored on disk).
    static let machOThin: [UInt8] = [0xCF, 0xFA, 0xED, 0xFE, 0x0C, 0x00, 0x00, 0x01] + [UInt8](repeating: 0, count: 56)

    /// A universal (fat) header with two slices that lie inside the file.
    static let machOUniversal: [UInt8] = {
        var bytes: [UInt8] = []
        bytes.appendBE(UInt32(0xCAFE_BABE))
        bytes.appendBE(UInt32(2))
        for (cpu, offset) in [(UInt32(0x0100_0007), UInt32(4096)), (UInt32(0x0100_000C), UInt32(8192))] {
            bytes.appendBE(cpu)
            bytes.appendBE(UInt32(3))
            bytes.appendBE(offset)
            bytes.appendBE(UInt32(4096))
            bytes.appendBE(UInt32(12))
        }
        bytes += [UInt8](repeating: 0, count: 12288 - bytes.count)
        return bytes
    }()

    /// A Java class file: same magic, then minor 0 / major 52 (read as 52 "architectures": not fat).
    static let javaClass: [UInt8] =
        [0xCA, 0xFE, 0xBA, 0xBE, 0x00, 0x00, 0x00, 0x34, 0x00, 0x0A] + [UInt8](repeating: 0, count: 120)

    /// An ELF header.
    static let elf: [UInt8] = [0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00] + [UInt8](repeating: 0, count: 56)

    /// An MZ stub whose e_lfanew points at `PE\0\0`.
    static let pe: [UInt8] = {
        var bytes = [UInt8](repeating: 0, count: 0x100)
        bytes[0] = 0x4D
        bytes[1] = 0x5A
        bytes[0x3C] = 0x80
        bytes[0x80] = 0x50
        bytes[0x81] = 0x45
        return bytes
    }()

    /// A PE whose `PE\0\0` lies at 0x2000, beyond the first 4 KiB a sniffer keeps.
    static let farPE: [UInt8] = {
        var bytes = [UInt8](repeating: 0, count: 0x3000)
        bytes[0] = 0x4D
        bytes[1] = 0x5A
        bytes[0x3D] = 0x20
        bytes[0x2000] = 0x50
        bytes[0x2001] = 0x45
        return bytes
    }()

    /// Text that merely starts with "MZ".
    static let mzText =
        Array("MZ is the name of our level pack; this is a readme, not a program.\n".utf8)
        + Array(String(repeating: "Plain text line.\n", count: 20).utf8)
}

extension ScratchFolder {
    /// A tree package `name.pkg` whose Contents/ holds `contents` (and `root` beside it).
    func hostileTree(
        _ name: String, _ contents: [XarNode], root: [XarNode] = [],
        plist: String = Fixtures.plist(product: "com.example.test", version: "1.0")
    ) throws -> String {
        let path = at(name + ".pkg")
        try HostileTree.write(HostileTree.nodes(plist: plist, contents: contents) + root, to: path)
        return path
    }

    /// A product package `name.pkg`: a valid plist and Contents/, then `items`, the Bom matching.
    func hostileProduct(_ name: String, _ items: [CpioItem]) throws -> String {
        let path = at(name + ".pkg")
        var package = HostileProduct(files: [("readme.txt", Array("hello\n".utf8))])
        package.items += items
        try package.write(to: path)
        return path
    }
}
