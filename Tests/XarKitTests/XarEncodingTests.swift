import Foundation
import IAPCrypto
import IAPSystem
import IAPTestSupport
import Testing

@testable import XarKit

/// One way real xar writers encode data: the `<encoding style>` and a system tool that makes the bytes.
struct EncodingCase: CustomTestStringConvertible, Sendable {
    var style: String
    var command: String
    var testDescription: String { "\(style) by \(command.split(separator: " ").first ?? "")" }

    /// zlib (RFC 1950) through Python's zlib module: no system command writes bare zlib.
    static let zlibCommand =
        "python3 -c 'import sys, zlib; sys.stdout.buffer.write(zlib.compress(sys.stdin.buffer.read(), 9))'"

    static let all: [EncodingCase] = [
        EncodingCase(style: "application/x-gzip", command: zlibCommand),
        EncodingCase(style: "application/zlib", command: zlibCommand),
        EncodingCase(style: "application/x-bzip2", command: "bzip2 -9 -c"),
        EncodingCase(style: "application/x-lzma", command: "xz --format=lzma -c"),
        // Early xar wrote .xz under the lzma name; xar's own reader takes both.
        EncodingCase(style: "application/x-lzma", command: "xz --format=xz -c"),
        EncodingCase(style: "application/x-xz", command: "xz --format=xz -c"),
    ]
}

/// Entries encoded with every codec xar writers use: exact bytes, and each way the data can be wrong.
@Suite struct XarEncodingTests {
    let directory: ScratchFolder
    init() throws { directory = ScratchFolder() }

    private func archive(
        _ codec: EncodingCase, content: [UInt8], edit: (inout FixtureFile) -> Void = { _ in },
        editTOC: @escaping (String) -> String = { $0 }
    ) throws -> XarArchive {
        var file = FixtureFile(name: "data.bin", content: content, encoding: codec.style)
        file.encoded = try SystemCompressor.compress(content, with: codec.command)
        edit(&file)
        var fixture = XarFixture()
        fixture.files = [file]
        fixture.editTOC = editTOC
        return try directory.open(fixture)
    }

    @Test(arguments: EncodingCase.all)
    func decodesToTheExactBytes(_ codec: EncodingCase) throws {
        for content in [[], Array("hello, world\n".utf8), SystemCompressor.sample(count: 2_500_000)] {
            let archive = try archive(codec, content: content)
            #expect(archive.findings == [])
            #expect(try archive.readAll(archive.requireFile("data.bin"), maxBytes: 4 << 20) == content)
            #expect(archive.verifyAllData() == [])
        }
    }

    @Test(arguments: EncodingCase.all)
    func readsIntoTinyBuffers(_ codec: EncodingCase) throws {
        let content = SystemCompressor.sample(count: 40_000, seed: 7)
        let archive = try archive(codec, content: content)
        let stream = try archive.dataStream(for: archive.requireFile("data.bin"))
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 7, alignment: 1)
        defer { buffer.deallocate() }
        var decoded: [UInt8] = []
        while true {
            let n = try stream.read(into: buffer)
            if n == 0 { break }
            decoded += buffer[0..<n]
        }
        #expect(decoded == content)
    }

    @Test(arguments: EncodingCase.all)
    func wrongChecksumsAreRefused(_ codec: EncodingCase) throws {
        let content = SystemCompressor.sample(count: 5000)
        let encoded = try SystemCompressor.compress(content, with: codec.command)
        let zeros = String(repeating: "0", count: 40)
        let extracted = Hex.encode(DigestHasher.digest(.sha1, of: content))
        let archived = Hex.encode(DigestHasher.digest(.sha1, of: encoded))
        let badExtracted = try archive(
            codec, content: content, edit: { $0.encoded = encoded },
            editTOC: { $0.replacingFirst(">\(extracted)<", with: ">\(zeros)<") })
        #expect(try badExtracted.readRule("data.bin") == "xar-extracted-checksum")
        let badArchived = try archive(
            codec, content: content, edit: { $0.encoded = encoded },
            editTOC: { $0.replacingFirst(">\(archived)<", with: ">\(zeros)<") })
        #expect(try badArchived.readRule("data.bin") == "xar-archived-checksum")
    }

    @Test(arguments: EncodingCase.all)
    func truncatedStreamsAreRefused(_ codec: EncodingCase) throws {
        let content = SystemCompressor.sample(count: 300_000)
        let encoded = try SystemCompressor.compress(content, with: codec.command)
        for keep in [3, encoded.count / 2, encoded.count - 1] {
            let archive = try archive(codec, content: content) { $0.encoded = Array(encoded.prefix(keep)) }
            #expect(try archive.readRule("data.bin") == "xar-data-decode", "kept \(keep) of \(encoded.count) bytes")
        }
    }

    @Test(arguments: EncodingCase.all)
    func junkAfterTheStreamIsRefused(_ codec: EncodingCase) throws {
        let content = SystemCompressor.sample(count: 20_000)
        for junk: [UInt8] in [[1, 2, 3, 4], [0, 0, 0, 0], Array("BZh9".utf8)] {
            let archive = try archive(codec, content: content) { $0.encoded = ($0.encoded ?? []) + junk }
            #expect(try archive.readRule("data.bin") == "xar-data-decode", "junk \(junk)")
        }
    }

    @Test(arguments: EncodingCase.all)
    func aBombStopsAtTheDeclaredSize(_ codec: EncodingCase) throws {
        let content = [UInt8](repeating: 0x41, count: 3_000_000)
        let declared = 1000
        let archive = try archive(codec, content: content) { $0.declaredSize = declared }
        let stream = try archive.dataStream(for: archive.requireFile("data.bin"))
        let delivered = bytesDeliveredBeforeTheSizeStop(stream)
        #expect(delivered <= declared)
        #expect(stream.producedByteCount <= UInt64(declared) + 1)
    }

    @Test(arguments: EncodingCase.all)
    func corruptDataNamesItsOffset(_ codec: EncodingCase) throws {
        let content = SystemCompressor.sample(count: 50_000)
        let archive = try archive(codec, content: content) { $0.encoded?[0] = 0xFF }
        let file = try archive.requireFile("data.bin")
        let data = try #require(file.data)
        let start = archive.heapOffset + data.offset
        do throws(XarError) {
            _ = try archive.readAll(file, maxBytes: 1 << 20)
            Issue.record("corrupt data decoded")
        } catch {
            #expect(error.rule?.id == "xar-data-decode")
            #expect(error.offset.map { $0 >= start && $0 < start + data.length } == true, "\(error)")
        }
        // A byte changed in the middle: refused, whichever check sees it first.
        let middle = try self.archive(codec, content: content) { file in
            if var bytes = file.encoded {
                bytes[bytes.count / 2] ^= 0x55
                file.encoded = bytes
            }
        }
        let rule = try middle.readRule("data.bin")
        #expect(
            ["xar-data-decode", "xar-data-size", "xar-extracted-checksum"].contains(rule ?? "none"), "\(rule ?? "none")"
        )
    }

    @Test func anLzmaStreamAskingForTooMuchMemoryIsRefused() throws {
        let content = SystemCompressor.sample(count: 10_000)
        let codec = EncodingCase(style: "application/x-lzma", command: "xz --format=lzma -c")
        // Bytes 1-4 of an .lzma header are the dictionary size, little-endian: claim 2 GiB.
        let archive = try archive(codec, content: content) {
            $0.encoded?.replaceSubrange(1..<5, with: [0, 0, 0, 0x80])
        }
        let file = try archive.requireFile("data.bin")
        do throws(XarError) {
            _ = try archive.readAll(file, maxBytes: 1 << 20)
            Issue.record("a 2 GiB dictionary was accepted")
        } catch {
            #expect(error.rule?.id == "xar-data-decode")
            #expect(error.message.contains("256 MiB"), "\(error)")
        }
    }

    @Test func anUnknownEncodingIsOneFindingNamingTheStyle() throws {
        var fixture = XarFixture()
        fixture.files[1].encoding = "application/x-zstd"
        let archive = try directory.open(fixture)
        let findings = archive.findings.filter { $0.rule == "xar-encoding" }
        #expect(findings.count == 1)
        #expect(findings.first?.message.contains("application/x-zstd") == true)
        #expect(findings.first?.entry == "raw.bin")
        #expect(try archive.readRule("raw.bin") == "xar-encoding")
    }
}
