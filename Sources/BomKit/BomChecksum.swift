/// Streaming BOM checksum: the POSIX `cksum(1)` CRC that pkgbuild stores for each file and link target.
///
/// CRC-32 polynomial 0x04C11DB7 run most-significant-bit first from zero over the bytes, then over the
/// byte count in little-endian order (only as many bytes as it takes), then inverted. An empty input
/// gives 0xFFFFFFFF. It is not zlib's reflected CRC-32 (go-macos-pkg docs/formats/bom.md, checked
/// against cksum(1)).
public struct BomChecksum: Sendable {
    private var crc: UInt32 = 0
    /// Bytes fed to `update` so far.
    public private(set) var byteCount: UInt64 = 0

    /// Starts a checksum over no bytes.
    public init() {}

    /// Feeds more bytes.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        var crc = self.crc
        cksumTables.withUnsafeBufferPointer { table in
            var index = 0
            let count = bytes.count
            // Eight bytes per step (slicing-by-8), then the tail one byte at a time.
            while count - index >= 8 {
                let word =
                    crc
                    ^ (UInt32(bytes[index]) << 24 | UInt32(bytes[index + 1]) << 16
                        | UInt32(bytes[index + 2]) << 8 | UInt32(bytes[index + 3]))
                crc =
                    table[7 * 256 + Int(word >> 24)]
                    ^ table[6 * 256 + Int((word >> 16) & 0xFF)]
                    ^ table[5 * 256 + Int((word >> 8) & 0xFF)]
                    ^ table[4 * 256 + Int(word & 0xFF)]
                    ^ table[3 * 256 + Int(bytes[index + 4])]
                    ^ table[2 * 256 + Int(bytes[index + 5])]
                    ^ table[1 * 256 + Int(bytes[index + 6])]
                    ^ table[Int(bytes[index + 7])]
                index += 8
            }
            while index < count {
                crc = (crc << 8) ^ table[Int(UInt8(truncatingIfNeeded: crc >> 24) ^ bytes[index])]
                index += 1
            }
        }
        self.crc = crc
        byteCount &+= UInt64(bytes.count)
    }

    /// Feeds the bytes of an array.
    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The checksum, folding in `length` as cksum does (pass the total byte count fed).
    public func finalize(length: UInt64) -> UInt32 {
        var crc = crc
        var remaining = length
        cksumTables.withUnsafeBufferPointer { table in
            while remaining != 0 {
                let byte = UInt8(truncatingIfNeeded: remaining)
                crc = (crc << 8) ^ table[Int(UInt8(truncatingIfNeeded: crc >> 24) ^ byte)]
                remaining >>= 8
            }
        }
        return ~crc
    }

    /// The checksum of everything fed so far.
    public func finalize() -> UInt32 {
        finalize(length: byteCount)
    }

    /// The checksum of one whole byte sequence, such as a symlink's target.
    public static func checksum(of bytes: some Sequence<UInt8>) -> UInt32 {
        var checksum = BomChecksum()
        checksum.update(Array(bytes))
        return checksum.finalize()
    }
}

/// Eight 256-entry tables for the MSB-first CRC with polynomial 0x04C11DB7: table k maps a byte to
/// its CRC followed by k zero bytes.
private let cksumTables: [UInt32] = {
    var tables = [UInt32](repeating: 0, count: 8 * 256)
    for byte in 0..<256 {
        var crc = UInt32(byte) << 24
        for _ in 0..<8 {
            crc = (crc & 0x8000_0000) != 0 ? (crc << 1) ^ 0x04C1_1DB7 : crc << 1
        }
        tables[byte] = crc
    }
    for slice in 1..<8 {
        for byte in 0..<256 {
            let previous = tables[(slice - 1) * 256 + byte]
            tables[slice * 256 + byte] = (previous << 8) ^ tables[Int(previous >> 24)]
        }
    }
    return tables
}()
