/// Byte-level mutations of a whole file: cuts, bit flips, overwritten bytes, interesting 4/8-byte
/// values (anywhere or on the header's fields), and splices from another seed.
enum ByteMutator {
    /// 32-bit values that tend to break length and count arithmetic.
    static let interesting32: [UInt32] = [
        0, 1, 2, 0x7F, 0x80, 0xFF, 0x100, 0x7FFF, 0x8000, 0xFFFF, 0x1_0000,
        0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFE, 0xFFFF_FFFF, 28, 4096,
    ]
    /// 64-bit values that tend to break length and offset arithmetic.
    static let interesting64: [UInt64] = [
        0, 1, 28, 0x7FFF_FFFF, 0xFFFF_FFFF, 0x1_0000_0000, 0x7FFF_FFFF_FFFF_FFFF,
        0x8000_0000_0000_0000, 0xFFFF_FFFF_FFFF_FFFF, 0xFFFF_FFFF_FFFF_FFE4, 1 << 40, 64 << 20,
    ]
    /// The largest input this fuzzer writes.
    static let maxInputBytes = 4 << 20

    /// Cuts `bytes` at a random point, often inside the header or the TOC.
    static func truncate(_ bytes: inout [UInt8], _ random: inout SplitMix64) -> String {
        guard !bytes.isEmpty else { return "empty" }
        let tocEnd = bytes.count >= 28 ? Int(min(UInt64(bytes.count), 28 &+ bytes.uint64BE(at: 8))) : bytes.count
        let cut =
            random.chance(1, in: 3) ? random.below(max(1, min(bytes.count, tocEnd + 64))) : random.below(bytes.count)
        bytes.removeSubrange(cut...)
        return "cut at \(cut)"
    }

    /// Flips 1–8 random bits.
    static func flipBits(_ bytes: inout [UInt8], _ random: inout SplitMix64) -> String {
        guard !bytes.isEmpty else { return "empty" }
        let flips = random.inRange(1...8)
        var location: [Int] = []
        for _ in 0..<flips {
            let offset = random.below(bytes.count)
            bytes[offset] ^= UInt8(1 << random.below(8))
            location.append(offset)
        }
        return "\(flips) bit flips at \(location)"
    }

    /// Overwrites 1–16 scattered bytes, or a run of up to 64 bytes, with random values.
    static func overwriteBytes(_ bytes: inout [UInt8], _ random: inout SplitMix64) -> String {
        guard !bytes.isEmpty else { return "empty" }
        if random.chance(1, in: 3) {
            let start = random.below(bytes.count)
            let length = min(bytes.count - start, random.inRange(1...64))
            let fill = random.pick([UInt8(0), 0xFF, 0x41, UInt8(truncatingIfNeeded: random.next())])
            for i in start..<(start + length) {
                bytes[i] = random.chance(1, in: 2) ? fill : UInt8(truncatingIfNeeded: random.next())
            }
            return "overwrote \(length) bytes at \(start)"
        }
        let count = random.inRange(1...16)
        for _ in 0..<count { bytes[random.below(bytes.count)] = UInt8(truncatingIfNeeded: random.next()) }
        return "overwrote \(count) scattered bytes"
    }

    /// Writes an interesting 4- or 8-byte value, big- or little-endian, at `offset` (or a random one).
    static func interestingValue(_ bytes: inout [UInt8], _ random: inout SplitMix64, at fixed: Int? = nil) -> String {
        let wide = random.chance(1, in: 2)
        let width = wide ? 8 : 4
        guard bytes.count >= width else { return "too short" }
        let offset = min(fixed ?? random.below(bytes.count - width + 1), bytes.count - width)
        let value: UInt64 = wide ? random.pick(interesting64) : UInt64(random.pick(interesting32))
        let littleEndian = random.chance(1, in: 5)
        for i in 0..<width {
            let shift = littleEndian ? 8 * i : 8 * (width - 1 - i)
            bytes[offset + i] = UInt8(truncatingIfNeeded: value >> shift)
        }
        return "\(width)-byte \(littleEndian ? "LE" : "BE") 0x\(String(value, radix: 16)) at \(offset)"
    }

    /// Sets one header field (size, version, TOC lengths, checksum algorithm) to an interesting value.
    static func headerField(_ bytes: inout [UInt8], _ random: inout SplitMix64) -> String {
        guard bytes.count >= 28 else { return interestingValue(&bytes, &random) }
        switch random.below(5) {
        case 0:
            let value = random.pick([UInt16(0), 1, 27, 29, 64, 0xFFFF])
            bytes[4] = UInt8(value >> 8)
            bytes[5] = UInt8(truncatingIfNeeded: value)
            return "header size -> \(value)"
        case 1:
            let value = random.pick([UInt16(0), 2, 0xFFFF])
            bytes[6] = UInt8(value >> 8)
            bytes[7] = UInt8(truncatingIfNeeded: value)
            return "version -> \(value)"
        case 2, 3:
            let field = random.pick([8, 16])
            let current = bytes.uint64BE(at: field)
            let value =
                random.chance(1, in: 2)
                ? random.pick(interesting64) : current &+ UInt64(bitPattern: Int64(random.inRange(-3...3)))
            XarSurgery.overwriteBE(&bytes, at: field, value)
            return "\(field == 8 ? "compressed" : "uncompressed") TOC length \(current) -> \(value)"
        default:
            let value = random.pick([UInt32(0), 1, 2, 3, 4, 5, 0xFFFF_FFFF])
            for i in 0..<4 { bytes[24 + i] = UInt8(truncatingIfNeeded: value >> (24 - 8 * i)) }
            return "checksum algorithm -> \(value)"
        }
    }

    /// Copies a region of `donor` over (or into) `bytes`.
    static func splice(_ bytes: inout [UInt8], donor: [UInt8], _ random: inout SplitMix64) -> String {
        guard !donor.isEmpty, !bytes.isEmpty else { return "empty" }
        let from = random.below(donor.count)
        let length = min(donor.count - from, random.inRange(1...4096))
        let region = donor[from..<(from + length)]
        let at = random.below(bytes.count)
        if random.chance(1, in: 2) {
            let end = min(bytes.count, at + length)
            bytes.replaceSubrange(at..<end, with: region)
            return "spliced \(length) donor bytes from \(from) over \(at)"
        }
        bytes.insert(contentsOf: region, at: at)
        if bytes.count > maxInputBytes { bytes.removeSubrange(maxInputBytes...) }
        return "inserted \(length) donor bytes from \(from) at \(at)"
    }
}
