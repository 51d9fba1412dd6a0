import BomKit
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
        var generator = SplitMix64(seed: 7)
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

/// A small deterministic generator for tests.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
