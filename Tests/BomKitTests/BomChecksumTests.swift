import BomKit
import IAPSystem
import IAPTestSupport
import Testing

@Suite struct BomChecksumTests {
    /// Values printed by GNU `cksum` (POSIX CRC); the last two also appear in go-macos-pkg's pkgbuild fixtures.
    @Test(arguments: [
        ("", UInt32(0xFFFF_FFFF)),
        ("123456789", UInt32(930_766_865)),
        ("hello, world\n", UInt32(0x535F_BD37)),
        ("hello.txt", UInt32(0x0DF2_2415)),
    ])
    func knownAnswers(input: String, expected: UInt32) {
        #expect(BomChecksum.checksum(of: Array(input.utf8)) == expected)
        var streaming = BomChecksum()
        for byte in input.utf8 { streaming.update([byte]) }
        #expect(streaming.finalize() == expected)
        #expect(streaming.finalize(length: UInt64(input.utf8.count)) == expected)
    }

    @Test func longInputMatchesCksum() {
        // `head -c 100000 /dev/zero | tr '\0' a | cksum` → 614267494 100000
        let bytes = [UInt8](repeating: 0x61, count: 100_000)
        #expect(BomChecksum.checksum(of: bytes) == 614_267_494)
    }

    @Test func anySplitGivesTheSameChecksum() {
        var generator = SeededGenerator(seed: 7)
        let bytes = (0..<4099).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        let whole = BomChecksum.checksum(of: bytes)
        for _ in 0..<200 {
            var checksum = BomChecksum()
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + Int(generator.next() % 23))
                checksum.update(Array(bytes[start..<end]))
                start = end
            }
            #expect(checksum.finalize() == whole)
        }
        #expect(whole != BomChecksum.checksum(of: bytes.dropLast()))
    }
}

@Suite struct CksumCRCTests {
    /// The folded (PCLMULQDQ) path and the byte table agree on every length, alignment and start state.
    @Test func fastPathMatchesTheTable() {
        var generator = SeededGenerator(seed: 11)
        let bytes = (0..<2200).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        bytes.withUnsafeBytes { all in
            for offset in 0..<17 {
                for count in stride(from: 0, through: 2100, by: 7) {
                    let piece = UnsafeRawBufferPointer(rebasing: all[offset..<(offset + count)])
                    let start = UInt32(truncatingIfNeeded: generator.next())
                    #expect(CksumCRC.update(start, piece) == CksumCRC.updatePortable(start, piece))
                }
            }
        }
    }

    /// The table itself against the bit-by-bit definition.
    @Test func tableMatchesTheDefinition() {
        var generator = SeededGenerator(seed: 13)
        let bytes = (0..<300).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        var bitwise: UInt32 = 0x1234_5678
        for byte in bytes {
            bitwise ^= UInt32(byte) << 24
            for _ in 0..<8 { bitwise = bitwise & 0x8000_0000 != 0 ? (bitwise << 1) ^ 0x04C1_1DB7 : bitwise << 1 }
        }
        #expect(bytes.withUnsafeBytes { CksumCRC.updatePortable(0x1234_5678, $0) } == bitwise)
        #expect(bytes.withUnsafeBytes { CksumCRC.update(0x1234_5678, $0) } == bitwise)
    }
}
