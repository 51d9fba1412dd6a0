import IAPTestSupport

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

/// Two files in a hand-made archive, written by the fixtures' one xar writer (``HostileXar``) on one
/// line per TOC, so that each part can be made wrong on purpose.
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

    /// The archive's bytes.
    func bytes() throws -> [UInt8] {
        var xar = HostileXar(
            files.map {
                XarNode(
                    name: $0.name, content: $0.content, encoding: $0.encoding, storedBytes: $0.encoded,
                    declaredSize: $0.declaredSize.map(UInt64.init))
            })
        xar.compact = true
        xar.magic = magic
        xar.headerSize = headerSize
        xar.version = version
        xar.checksumCode = checksumCode
        xar.editTOC = editTOC
        let junk = junkAfterTOC
        xar.editCompressedTOC = { $0 + junk }
        xar.compressedLengthDelta = compressedLengthDelta
        xar.declaredUncompressedLength = declaredUncompressedLength
        xar.editHeap = editHeap
        return try xar.bytes()
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
