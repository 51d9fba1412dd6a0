internal import CShims

/// The CRC of POSIX `cksum(1)` (polynomial 0x04C11DB7, most significant bit first, from zero, no
/// inversion): the running state only, which BomKit's checksum finishes. Folded with PCLMULQDQ
/// where the processor has it (several GB/s), by a byte table otherwise; both give the same state,
/// so input may be split anywhere.
package enum CksumCRC {
    /// The state after `bytes`, starting from `crc`.
    package static func update(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return crc }
        return iap_cksum_crc_update(crc, base, bytes.count)
    }

    /// The same state by the byte table alone (for tests that hold the fast path to it).
    package static func updatePortable(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return crc }
        return iap_cksum_crc_update_portable(crc, base, bytes.count)
    }
}
