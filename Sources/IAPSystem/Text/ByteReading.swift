/// Big-endian integer reads from byte arrays, bounds-checked by the caller.
extension Array where Element == UInt8 {
    /// The big-endian UInt16 at `offset`.
    package func uint16BE(at offset: Int) -> UInt16 {
        UInt16(self[offset]) << 8 | UInt16(self[offset + 1])
    }

    /// The big-endian UInt32 at `offset`.
    package func uint32BE(at offset: Int) -> UInt32 {
        var v: UInt32 = 0
        for i in 0..<4 { v = v << 8 | UInt32(self[offset + i]) }
        return v
    }

    /// The big-endian UInt64 at `offset`.
    package func uint64BE(at offset: Int) -> UInt64 {
        var v: UInt64 = 0
        for i in 0..<8 { v = v << 8 | UInt64(self[offset + i]) }
        return v
    }

    /// Appends `value` in big-endian order.
    package mutating func appendBE<T: FixedWidthInteger>(_ value: T) {
        var v = value.bigEndian
        Swift.withUnsafeBytes(of: &v) { append(contentsOf: $0) }
    }
}

extension UInt64 {
    /// `self + other`, stopping at `UInt64.max` instead of trapping: for sums of untrusted sizes.
    package func addingSaturated(_ other: UInt64) -> UInt64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }
}
