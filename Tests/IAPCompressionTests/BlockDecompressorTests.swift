import Testing

@testable import IAPCompression

@Suite struct BlockDecompressorTests {
    private let text = Array(String(repeating: "level score chapter rocket ", count: 4000).utf8)

    @Test func decodesAZlibStreamWhole() throws {
        let packed = try Deflater.compress(text, format: .zlib)
        var out = [UInt8](repeating: 0, count: text.count + 1)
        let step = packed.withUnsafeBytes { input in
            out.withUnsafeMutableBytes { BlockDecompressor().zlibStream(input, into: $0) }
        }
        #expect(step?.used == packed.count)
        #expect(step?.made == text.count)
        #expect(Array(out.prefix(text.count)) == text)
    }

    @Test func refusesWhatItCannotDecodeWhole() throws {
        let packed = try Deflater.compress(text, format: .zlib)
        let decoder = BlockDecompressor()
        func decode(_ input: [UInt8], room: Int) -> (used: Int, made: Int)? {
            var out = [UInt8](repeating: 0, count: room)
            return input.withUnsafeBytes { input in out.withUnsafeMutableBytes { decoder.zlibStream(input, into: $0) } }
        }
        #expect(decode(packed, room: text.count - 1) == nil, "more than the room")
        var damaged = packed
        damaged[damaged.count - 1] ^= 0xFF  // the Adler-32
        #expect(decode(damaged, room: text.count) == nil, "a wrong Adler-32")
        #expect(decode(Array(packed.dropLast(10)), room: text.count) == nil, "cut short")
        #expect(decode(try Deflater.compress(text, format: .gzip), room: text.count) == nil, "gzip, not zlib")
        // Junk after the stream is not decoded: the caller sees it from `used`.
        #expect(decode(packed + [1, 2, 3], room: text.count)?.used == packed.count)
    }
}
