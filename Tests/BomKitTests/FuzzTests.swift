import BomKit
import IAPTestSupport
import Testing

/// Thousands of damaged Boms: read() must return or throw, never crash or hang.
@Suite struct FuzzTests {
    static func mutate(_ original: [UInt8], with generator: inout SeededGenerator) -> [UInt8] {
        var bytes = original
        switch generator.next() % 4 {
        case 0:
            bytes.removeLast(Int(generator.next() % UInt64(bytes.count)))
        case 1:
            for _ in 0...(generator.next() % 4) {
                let offset = Int(generator.next() % UInt64(bytes.count))
                bytes[offset] ^= 1 << UInt8(generator.next() % 8)
            }
        case 2:
            // A 32-bit field anywhere set to a value that tends to matter.
            let offset = Int(generator.next() % UInt64(bytes.count - 4))
            let values: [UInt32] = [
                0, 1, 2, 0xFFFF, 0xFFFF_FFFF, 0x8000_0000, UInt32(generator.next() % 64),
                UInt32(truncatingIfNeeded: generator.next()),
            ]
            let value = values[Int(generator.next() % UInt64(values.count))]
            for shift in 0..<4 { bytes[offset + shift] = UInt8(truncatingIfNeeded: value >> (24 - 8 * shift)) }
        default:
            // Aim at the structures: the block table and variables at the end, or the first blocks.
            let tail = min(bytes.count - 1, 400)
            let offset =
                generator.next() % 2 == 0
                ? bytes.count - 1 - Int(generator.next() % UInt64(tail))
                : 512 + Int(generator.next() % UInt64(min(bytes.count - 512, 600)))
            bytes[offset] = UInt8(truncatingIfNeeded: generator.next())
        }
        return bytes
    }

    @Test func damagedBomsNeverCrash() throws {
        var generator = SeededGenerator(seed: 2024)
        var samples = [try BomWriter.write(RoundTripTests.realisticTree())]
        var many = [BomEntry(path: ".", kind: .directory, mode: 0o40755)]
        for number in 0..<1200 {
            many.append(
                BomEntry(
                    path: "./f\(number)", kind: .file, mode: 0o100644, size: UInt64(number), checksum: UInt32(number)))
        }
        samples.append(try BomWriter.write(many))  // 3 leaves under a branch
        var failures = 0
        var successes = 0
        // A fifth of the rounds under a sanitizer: the same CI run fuzzes BomReader under
        // AddressSanitizer with libFuzzer's `bom` target, guided by coverage (.ci/fuzz).
        let rounds = Sanitizer.rounds(4000)
        for round in 0..<rounds {
            let damaged = Self.mutate(samples[round % samples.count], with: &generator)
            do {
                _ = try BomReader.read(damaged)
                successes += 1
            } catch {
                failures += 1
                #expect(!error.description.isEmpty)
            }
        }
        #expect(failures > rounds / 4)
        #expect(failures + successes == rounds)
    }
}
