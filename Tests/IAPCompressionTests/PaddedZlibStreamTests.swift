import Testing

@testable import IAPCompression

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
