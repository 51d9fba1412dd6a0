import IAPSystem

/// A checked view of a Bom's container: header, block table, free list, variables.
///
/// Every range it hands out lies inside the file; nothing is trusted before it is checked.
struct BomFile {
    let bytes: [UInt8]
    /// (address, length) per block index; each range checked against the file when used.
    private let blocks: [(address: UInt32, length: UInt32)]
    /// Variable name to block index, names unique.
    let variables: [String: UInt32]

    init(_ bytes: [UInt8], limits: BomLimits) throws(BomError) {
        guard bytes.count <= limits.maxBytes else { throw .tooLarge(byteCount: bytes.count, limit: limits.maxBytes) }
        guard bytes.count >= BomLayout.headerSize else { throw .truncatedHeader(byteCount: bytes.count) }
        guard bytes[0..<8].elementsEqual(BomLayout.magic) else { throw .badMagic(found: Array(bytes[0..<8])) }
        let version = Self.u32(bytes, 8)
        guard version == BomLayout.version else { throw .unsupportedVersion(version) }
        let indexRange = try Self.range(
            of: "block table", offset: Self.u32(bytes, 16),
            length: Self.u32(bytes, 20), fileSize: bytes.count)
        let variablesRange = try Self.range(
            of: "variable table", offset: Self.u32(bytes, 24),
            length: Self.u32(bytes, 28), fileSize: bytes.count)
        self.bytes = bytes
        self.blocks = try Self.parseBlockTable(bytes, indexRange)
        self.variables = try Self.parseVariables(bytes, variablesRange, limits: limits)
    }

    var blockCount: Int { blocks.count }

    /// The bytes of block `index`, checked to lie inside the file and off the header.
    func block(_ index: UInt32, from source: @autoclosure () -> String) throws(BomError) -> ArraySlice<UInt8> {
        guard Int(index) < blocks.count, index != 0 else {
            throw .blockIndexOutOfRange(index: index, blockCount: blocks.count, referencedFrom: source())
        }
        let block = blocks[Int(index)]
        let start = Int(block.address)
        let end = Int(block.address) + Int(block.length)
        guard end <= bytes.count, start >= BomLayout.headerSize || block.length == 0 else {
            throw .blockOutsideFile(index: index, address: block.address, length: block.length, fileSize: bytes.count)
        }
        return bytes[start..<end]
    }

    /// The block of a variable, or an error naming the missing variable.
    func variable(_ name: String) throws(BomError) -> UInt32 {
        guard let index = variables[name] else { throw .missingVariable(name: name) }
        return index
    }

    /// The big-endian u32 at `offset` (trapping, as a subscript would, when it is not all inside).
    @inline(__always)
    static func u32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        precondition(offset >= 0 && offset <= bytes.count - 4, "u32 read outside the bytes")
        return bytes.withUnsafeBytes { UInt32(bigEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) }
    }

    /// The big-endian u32 at `offset` from the slice's start.
    @inline(__always)
    static func u32(_ bytes: ArraySlice<UInt8>, _ offset: Int) -> UInt32 {
        precondition(offset >= 0 && offset <= bytes.count - 4, "u32 read outside the bytes")
        return bytes.withUnsafeBytes { UInt32(bigEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) }
    }

    /// The big-endian u16 at `offset` from the slice's start.
    @inline(__always)
    static func u16(_ bytes: ArraySlice<UInt8>, _ offset: Int) -> UInt16 {
        precondition(offset >= 0 && offset <= bytes.count - 2, "u16 read outside the bytes")
        return bytes.withUnsafeBytes { UInt16(bigEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt16.self)) }
    }

    private static func range(of what: String, offset: UInt32, length: UInt32, fileSize: Int) throws(BomError) -> Range<
        Int
    > {
        let start = Int(offset)
        let end = Int(offset) + Int(length)
        guard end <= fileSize, start >= BomLayout.headerSize else {
            throw .rangeOutsideFile(what: what, offset: UInt64(offset), length: UInt64(length), fileSize: fileSize)
        }
        return start..<end
    }

    /// count u32, count × (address, length), then the free list: count u32, count × (address, length).
    private static func parseBlockTable(_ bytes: [UInt8], _ range: Range<Int>) throws(BomError) -> [(
        address: UInt32, length: UInt32
    )] {
        guard range.count >= 4 else {
            throw .malformedBlockTable(
                offset: range.lowerBound, reason: "\(range.count) bytes cannot hold a block count")
        }
        let count = Int(u32(bytes, range.lowerBound))
        guard count >= 1, count <= (range.count - 4) / 8 else {
            throw .malformedBlockTable(
                offset: range.lowerBound,
                reason: "\(count) blocks do not fit in \(range.count) bytes (or no null block)")
        }
        // count × 8 bytes lie inside the range (checked above): read them unchecked, into room
        // advised to huge pages (a Bom of 40,000 paths has 280,000 blocks).
        let first = range.lowerBound + 4
        let blocks = [(address: UInt32, length: UInt32)](unsafeUninitializedCapacity: count) { table, made in
            LargePages.advise(UnsafeMutableRawBufferPointer(table))
            bytes.withUnsafeBytes { raw in
                for number in 0..<count {
                    let offset = first + number * 8
                    table[number] = (
                        UInt32(bigEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)),
                        UInt32(bigEndian: raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self))
                    )
                }
            }
            made = count
        }
        let offset = first + count * 8
        guard blocks[0].length == 0 else {
            throw .malformedBlockTable(offset: range.lowerBound + 4, reason: "block 0 must be the empty null block")
        }
        guard range.upperBound - offset >= 4 else {
            throw .malformedBlockTable(offset: offset, reason: "no room for the free list's count")
        }
        let freeCount = Int(u32(bytes, offset))
        guard freeCount <= (range.upperBound - offset - 4) / 8 else {
            throw .malformedBlockTable(offset: offset, reason: "free list of \(freeCount) entries runs past the table")
        }
        return blocks
    }

    /// count u32, then count × (block u32, name length u8, name).
    private static func parseVariables(_ bytes: [UInt8], _ range: Range<Int>, limits: BomLimits) throws(BomError)
        -> [String: UInt32]
    {
        guard range.count >= 4 else {
            throw .malformedVariables(offset: range.lowerBound, reason: "\(range.count) bytes cannot hold a count")
        }
        let count = Int(u32(bytes, range.lowerBound))
        guard count <= limits.maxVariables else {
            throw .malformedVariables(
                offset: range.lowerBound, reason: "\(count) variables, above the limit of \(limits.maxVariables)")
        }
        var variables: [String: UInt32] = [:]
        var offset = range.lowerBound + 4
        for number in 0..<count {
            guard range.upperBound - offset >= 5 else {
                throw .malformedVariables(offset: offset, reason: "variable \(number) runs past the table")
            }
            let block = u32(bytes, offset)
            let nameLength = Int(bytes[offset + 4])
            offset += 5
            guard nameLength >= 1, range.upperBound - offset >= nameLength else {
                throw .malformedVariables(
                    offset: offset, reason: "name of variable \(number) is empty or runs past the table")
            }
            guard let name = String(validating: bytes[offset..<(offset + nameLength)], as: UTF8.self) else {
                throw .malformedVariables(offset: offset, reason: "name of variable \(number) is not UTF-8")
            }
            guard variables.updateValue(block, forKey: name) == nil else {
                throw .malformedVariables(offset: offset, reason: "variable \"\(name)\" appears twice")
            }
            offset += nameLength
        }
        return variables
    }
}
