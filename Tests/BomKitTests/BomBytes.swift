/// Test-side decoding of a Bom's container, written independently of BomKit's reader.
struct BomBytes {
    var bytes: [UInt8]

    func u32(_ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
            | UInt32(bytes[offset + 3])
    }

    mutating func setU32(_ value: UInt32, at offset: Int) {
        bytes[offset] = UInt8(truncatingIfNeeded: value >> 24)
        bytes[offset + 1] = UInt8(truncatingIfNeeded: value >> 16)
        bytes[offset + 2] = UInt8(truncatingIfNeeded: value >> 8)
        bytes[offset + 3] = UInt8(truncatingIfNeeded: value)
    }

    var indexOffset: Int { Int(u32(16)) }
    var blockCount: Int { Int(u32(indexOffset)) }

    /// Offset of block `index`'s table entry (address, then length).
    func tableEntryOffset(_ index: Int) -> Int { indexOffset + 4 + index * 8 }

    func block(_ index: Int) -> Range<Int> {
        let address = Int(u32(tableEntryOffset(index)))
        return address..<(address + Int(u32(tableEntryOffset(index) + 4)))
    }

    func blockBytes(_ index: Int) -> [UInt8] { Array(bytes[block(index)]) }

    /// (name, block index, offset of the block index field) in table order.
    var variables: [(name: String, block: Int, fieldOffset: Int)] {
        var offset = Int(u32(24))
        let count = Int(u32(offset))
        offset += 4
        var result: [(String, Int, Int)] = []
        for _ in 0..<count {
            let block = Int(u32(offset))
            let length = Int(bytes[offset + 4])
            result.append((String(decoding: bytes[(offset + 5)..<(offset + 5 + length)], as: UTF8.self), block, offset))
            offset += 5 + length
        }
        return result
    }

    func variable(_ name: String) -> (block: Int, fieldOffset: Int) {
        let found = variables.first { $0.name == name }!
        return (found.block, found.fieldOffset)
    }

    /// The root node of the tree a variable names.
    func treeRoot(_ name: String) -> Int { Int(u32(block(variable(name).block).lowerBound + 8)) }
}

/// Big-endian bytes of a UInt32, for building expectations.
func be32(_ value: UInt32) -> [UInt8] {
    [
        UInt8(truncatingIfNeeded: value >> 24), UInt8(truncatingIfNeeded: value >> 16),
        UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value),
    ]
}

func be16(_ value: UInt16) -> [UInt8] { [UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)] }
