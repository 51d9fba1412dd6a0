import IAPCompression
import IAPCrypto
import IAPSystem

/// One top-level regular file in a hand-made fixture archive.
struct FixtureFile {
    var name: String
    var content: [UInt8]
    /// The `<encoding style>`; zlib-compresses the content when it is `application/x-gzip`.
    var encoding: String = "application/x-gzip"
    /// The bytes written to the heap, when made elsewhere (a system compressor); nil encodes `content`.
    var encoded: [UInt8]? = nil
    /// Replaces `<size>` (the decoded length).
    var declaredSize: Int? = nil
}

/// Writes xar archives by hand — header, our own TOC text, heap — so each part can be made wrong on purpose.
struct XarFixture {
    var files: [FixtureFile] = [
        FixtureFile(name: "hello.txt", content: Array("hello, world\n".utf8)),
        FixtureFile(name: "raw.bin", content: Array(0..<200).map { UInt8($0) }, encoding: "application/octet-stream"),
    ]
    var magic: UInt32 = 0x7861_7221
    var headerSize: UInt16 = 28
    var version: UInt16 = 1
    var checksumCode: UInt32 = 1
    /// Edits the TOC XML text before compression.
    var editTOC: (String) -> String = { $0 }
    /// Bytes appended after the zlib TOC stream, counted in the declared compressed length.
    var junkAfterTOC: [UInt8] = []
    /// Added to the declared compressed length (the bytes themselves are unchanged).
    var compressedLengthDelta: Int = 0
    /// Replaces the declared uncompressed length.
    var declaredUncompressedLength: UInt64?
    /// Edits the heap (digest included) before it is written.
    var editHeap: ([UInt8]) -> [UInt8] = { $0 }

    /// The `<file>` element of file `index` (1-based id), as `tocXML` writes it.
    static func fileXML(
        id: Int, name: String, offset: Int, length: Int, size: Int, encoding: String,
        archived: [UInt8], extracted: [UInt8]
    ) -> String {
        "<file id=\"\(id)\"><name>\(name)</name><type>file</type><mode>0644</mode><uid>0</uid><gid>0</gid>"
            + "<data><offset>\(offset)</offset><length>\(length)</length><size>\(size)</size>"
            + "<encoding style=\"\(encoding)\"/>"
            + "<archived-checksum style=\"sha1\">\(Hex.encode(archived))</archived-checksum>"
            + "<extracted-checksum style=\"sha1\">\(Hex.encode(extracted))</extracted-checksum></data></file>"
    }

    /// The archive's bytes.
    func bytes() throws -> [UInt8] {
        var data: [UInt8] = []
        var fileElements = ""
        for (index, file) in files.enumerated() {
            let stored =
                try file.encoded
                ?? (file.encoding == "application/x-gzip"
                    ? Deflater.compress(file.content, format: .zlib) : file.content)
            fileElements += Self.fileXML(
                id: index + 1, name: file.name, offset: 20 + data.count, length: stored.count,
                size: file.declaredSize ?? file.content.count, encoding: file.encoding,
                archived: DigestHasher.digest(.sha1, of: stored),
                extracted: DigestHasher.digest(.sha1, of: file.content))
            data += stored
        }
        let xml =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<xar><toc>"
            + "<checksum style=\"sha1\"><offset>0</offset><size>20</size></checksum>"
            + "<creation-time>2024-01-01T00:00:00Z</creation-time>" + fileElements + "</toc></xar>\n"
        let text = Array(editTOC(xml).utf8)
        let compressed = try Deflater.compress(text, format: .zlib) + junkAfterTOC
        let digest = DigestHasher.digest(.sha1, of: compressed)
        var header: [UInt8] = []
        header.appendBE(magic)
        header.appendBE(headerSize)
        header.appendBE(version)
        header.appendBE(UInt64(compressed.count + compressedLengthDelta))
        header.appendBE(declaredUncompressedLength ?? UInt64(text.count))
        header.appendBE(checksumCode)
        return header + compressed + editHeap(digest + data)
    }
}

extension XarFixture {
    /// The default fixture, changed by `edit`.
    static func edited(_ edit: (inout XarFixture) -> Void) -> XarFixture {
        var fixture = XarFixture()
        edit(&fixture)
        return fixture
    }

    /// The default fixture with its TOC text changed by `edit`.
    static func editingTOC(_ edit: @escaping (String) -> String) -> XarFixture {
        edited { $0.editTOC = edit }
    }
}
