import Testing

@testable import IAPCompression
@testable import IAPCrypto
@testable import IAPSystem

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
        #expect(
            Hex.encode(DigestHasher.digest(.sha1, of: Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(
            Hex.encode(DigestHasher.digest(.sha256, of: []))
                == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(Hex.decode("A9993e") == [0xa9, 0x99, 0x3e])
        #expect(Hex.decode("abc") == nil)
    }
}
