#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import IAPCore

@Suite struct ZlibTests {
    @Test func roundTripsEveryFormat() throws {
        let text = Array(String(repeating: "level score chapter rocket ", count: 5000).utf8)
        for format in [ZlibFormat.zlib, .gzip, .raw] {
            let packed = try Deflater.compress(text, format: format)
            #expect(packed.count < text.count / 10)
            let inflater = Inflater(format: format)
            var out = [UInt8]()
            let used = try packed.withUnsafeBytes { try inflater.decompress($0) { out.append(contentsOf: $0) } }
            #expect(inflater.finished)
            #expect(used == packed.count)
            #expect(out == text)
        }
    }

    @Test func reportsWhereTheStreamEnds() throws {
        var packed = try Deflater.compress(Array("hello".utf8), format: .zlib)
        let length = packed.count
        packed += [1, 2, 3]
        let inflater = Inflater(format: .zlib)
        let used = try packed.withUnsafeBytes { try inflater.decompress($0) { _ in } }
        #expect(used == length)
        #expect(inflater.finished)
    }

    @Test func rejectsCorruptData() {
        let inflater = Inflater(format: .zlib)
        #expect(throws: ZlibError.self) {
            try [0x78, 0x9c, 0xff, 0xff, 0xff, 0xff].withUnsafeBytes { try inflater.decompress($0) { _ in } }
        }
    }
}

@Suite struct DigestTests {
    @Test func knownVectors() {
        #expect(Hex.encode(DigestHasher.digest(.sha1, of: Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(Hex.encode(DigestHasher.digest(.sha256, of: [])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(Hex.decode("A9993e") == [0xa9, 0x99, 0x3e])
        #expect(Hex.decode("abc") == nil)
    }
}

@Suite struct PaddedZlibStreamTests {
    @Test func fillsExactlyAndInflatesToTextPlusSpaces() throws {
        let text = Array(String(repeating: "<file><name>x</name></file>\n", count: 40).utf8)
        for length in [200, 1000, 4096, 70_000, 140_000] {
            let made = try #require(PaddedZlibStream.make(text, level: 6, length: length), "\(length)")
            #expect(made.bytes.count == length)
            let inflater = Inflater(format: .zlib)
            var out: [UInt8] = []
            let used = try made.bytes.withUnsafeBytes { try inflater.decompress($0) { out.append(contentsOf: $0) } }
            #expect(inflater.finished && used == length)
            #expect(out.count == made.uncompressedLength)
            #expect(Array(out.prefix(text.count)) == text)
            #expect(out.dropFirst(text.count).allSatisfy { $0 == 0x20 })
        }
        #expect(PaddedZlibStream.make(text, level: 6, length: 20) == nil)
    }
}

@Suite struct ReadAheadReaderTests {
    func file(_ bytes: [UInt8]) throws -> FileDescriptor {
        let path = "/tmp/readahead-\(UInt64.random(in: 0...UInt64.max))"
        let out = try FileDescriptor.createExclusive(path)
        try out.write(bytes)
        defer { unlink(path) }
        return try FileDescriptor.openForReading(path)
    }

    @Test func deliversTheRangeInOrderAndDigestsIt() throws {
        let bytes = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
        let hasher = DigestHasher(.sha1)
        let reader = try ReadAheadReader(file: try file(bytes), start: 1000, length: 2_500_000, chunkSize: 65_536, depth: 3, hasher: hasher)
        var got: [UInt8] = []
        while let chunk = try reader.next() { got.append(contentsOf: chunk) }
        #expect(got == Array(bytes[1000..<2_501_000]))
        #expect(hasher.finish() == DigestHasher.digest(.sha1, of: got))
    }

    @Test func endsEarlyWhenTheFileIsShort() throws {
        let reader = try ReadAheadReader(file: try file([UInt8](repeating: 1, count: 100_000)), start: 0, length: 500_000,
                                     chunkSize: 65_536, depth: 2, hasher: nil)
        var total = 0
        while let chunk = try reader.next() { total += chunk.count }
        #expect(total == 100_000)
        #expect(reader.bytesDelivered == 100_000)
    }

    @Test func canBeAbandonedHalfWay() throws {
        for _ in 0..<20 {
            let reader = try ReadAheadReader(file: try file([UInt8](repeating: 2, count: 1_000_000)), start: 0, length: 1_000_000,
                                         chunkSize: 4096, depth: 2, hasher: DigestHasher(.sha1))
            _ = try reader.next()
        }
    }
}
