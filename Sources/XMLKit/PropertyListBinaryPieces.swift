/// The pieces a binary property list is made of, each read with its range checked: integers,
/// reals, lengths, object references.
extension PropertyListBinaryReader {
    /// Checks that `count` bytes from `position` lie inside the object area.
    func require(_ position: Int, _ count: Int, for what: String, object start: Int) throws(PropertyListError) {
        guard count >= 0, position <= tableOffset, count <= tableOffset - position else {
            throw PropertyListError(
                .outOfRange,
                "\(what) needs \(count) bytes from byte \(position), past the object area's end at \(tableOffset)",
                at: .byteOffset(start))
        }
    }

    /// The signed integer of an int object whose marker is at `start`: 1, 2, 4 bytes unsigned, 8 bytes
    /// signed, 16 bytes signed when it fits in 64 bits.
    func integer(at start: Int, sizeExponent: Int) throws(PropertyListError) -> Int64 {
        guard sizeExponent <= 4 else {
            throw PropertyListError(
                .invalidValue, "integer of 2^\(sizeExponent) bytes; integers are 1, 2, 4, 8 or 16 bytes",
                at: .byteOffset(start))
        }
        let size = 1 << sizeExponent
        try require(start + 1, size, for: "integer", object: start)
        switch size {
        case 16:
            let high = bytes.uint64BE(at: start + 1)
            let low = bytes.uint64BE(at: start + 9)
            let value = Int64(bitPattern: low)
            guard high == (value < 0 ? UInt64.max : 0) else {
                throw PropertyListError(
                    .invalidValue, "128-bit integer does not fit in a signed 64-bit integer", at: .byteOffset(start))
            }
            return value
        case 8:
            return Int64(bitPattern: bytes.uint64BE(at: start + 1))
        default:
            return Int64(unsigned(at: start + 1, size: size))
        }
    }

    func real(at start: Int, size: Int) throws(PropertyListError) -> Double {
        try require(start + 1, size, for: "real", object: start)
        if size == 4 { return Double(Float(bitPattern: bytes.uint32BE(at: start + 1))) }
        return Double(bitPattern: bytes.uint64BE(at: start + 1))
    }

    /// The element count of a sized object and where its body starts, checked so `count * unit` bytes
    /// from the body lie inside the object area.
    func length(at start: Int, low: Int, unit: Int, what: String) throws(PropertyListError) -> (Int, Int) {
        var count = low
        var body = start + 1
        if low == 0x0F {
            try require(start + 1, 1, for: "\(what) length", object: start)
            let marker = bytes[start + 1]
            guard marker >> 4 == 0x1, marker & 0x0F <= 3 else {
                throw PropertyListError(
                    .invalidValue, "\(what) length marker 0x\(hex(marker)) is not an integer of 1 to 8 bytes",
                    at: .byteOffset(start + 1))
            }
            let size = 1 << Int(marker & 0x0F)
            try require(start + 2, size, for: "\(what) length", object: start)
            let declared = unsigned(at: start + 2, size: size)
            guard declared <= UInt64(tableOffset) else {
                throw PropertyListError(
                    .outOfRange, "\(what) declares \(declared) entries, more than the whole file could hold",
                    at: .byteOffset(start))
            }
            count = Int(declared)
            body = start + 2 + size
        }
        let (total, overflow) = count.multipliedReportingOverflow(by: unit)
        guard !overflow else {
            throw PropertyListError(
                .outOfRange, "\(what) declares \(count) entries, more than the file could hold", at: .byteOffset(start))
        }
        try require(body, total, for: "\(what) of \(count) entries", object: start)
        return (count, body)
    }

    /// The object index stored at `position`, checked against the object count.
    func reference(at position: Int) throws(PropertyListError) -> Int {
        let index = unsigned(at: position, size: referenceSize)
        guard index < UInt64(objectCount) else {
            throw PropertyListError(
                .outOfRange, "reference to object \(index), but there are \(objectCount) objects",
                at: .byteOffset(position))
        }
        return Int(index)
    }

    /// A big-endian unsigned number of `size` (1...8) bytes; the caller has checked the range.
    func unsigned(at position: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for byte in bytes[position..<position + size] { value = value << 8 | UInt64(byte) }
        return value
    }

    func hex(_ byte: UInt8) -> String {
        let text = String(byte, radix: 16, uppercase: true)
        return text.count == 1 ? "0" + text : text
    }
}
