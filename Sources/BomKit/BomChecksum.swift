import IAPSystem

/// Streaming BOM checksum: the POSIX `cksum(1)` CRC that pkgbuild stores for each file and link target.
///
/// CRC-32 polynomial 0x04C11DB7 run most-significant-bit first from zero over the bytes, then over the
/// byte count in little-endian order (only as many bytes as it takes), then inverted. An empty input
/// gives 0xFFFFFFFF. It is not zlib's reflected CRC-32 (go-macos-pkg docs/formats/bom.md, checked
/// against cksum(1)).
package struct BomChecksum: Sendable {
    private var crc: UInt32 = 0
    /// Bytes fed to `update` so far.
    package private(set) var byteCount: UInt64 = 0

    /// Starts a checksum over no bytes.
    package init() {}

    /// Feeds more bytes.
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        crc = CksumCRC.update(crc, bytes)
        byteCount &+= UInt64(bytes.count)
    }

    /// Feeds the bytes of an array.
    package mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The checksum, folding in `length` as cksum does (pass the total byte count fed).
    package func finalize(length: UInt64) -> UInt32 {
        // The length's significant bytes, least significant first.
        let count = (UInt64.bitWidth - length.leadingZeroBitCount + 7) / 8
        return ~withUnsafeBytes(of: length.littleEndian) {
            CksumCRC.update(crc, UnsafeRawBufferPointer(rebasing: $0[0..<count]))
        }
    }

    /// The checksum of everything fed so far.
    package func finalize() -> UInt32 {
        finalize(length: byteCount)
    }

    /// The checksum of one whole byte sequence, such as a symlink's target.
    package static func checksum(of bytes: some Sequence<UInt8>) -> UInt32 {
        var checksum = BomChecksum()
        checksum.update(Array(bytes))
        return checksum.finalize()
    }
}
