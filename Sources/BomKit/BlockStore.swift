/// The writer's block heap: hands out block indices and lays the file out.
///
/// Layout (ours; nothing reads a Bom by offset): the 32-byte header padded to 512 bytes, every
/// block in index order, the block table, the free list (count 0 and two empty pointers, as Apple's
/// mkbom writes it per bomutils), then the variable table.
struct BlockStore {
    /// Header padding, then block bytes.
    private var data = [UInt8](repeating: 0, count: BomLayout.firstBlockOffset)
    /// (address, length) per block; block 0 is the null block.
    private var table: [(address: Int, length: Int)] = [(0, 0)]

    /// Appends a block and returns its index.
    mutating func add(_ bytes: [UInt8]) -> UInt32 {
        table.append((data.count, bytes.count))
        data.append(contentsOf: bytes)
        return UInt32(truncatingIfNeeded: table.count - 1)
    }

    /// Appends `length` zero bytes as a block whose content is filled in later with `fill`.
    mutating func reserve(length: Int) -> UInt32 {
        add([UInt8](repeating: 0, count: length))
    }

    /// Writes `bytes` at the start of a block made by `reserve`.
    mutating func fill(_ index: UInt32, with bytes: [UInt8]) {
        let block = table[Int(index)]
        precondition(bytes.count <= block.length, "block \(index) overfilled")
        data.replaceSubrange(block.address..<(block.address + bytes.count), with: bytes)
    }

    /// The whole file, with `variables` (name, block index) in the given order.
    consuming func serialize(variables: [(name: String, block: UInt32)]) throws(BomError) -> [UInt8] {
        var out = data
        let indexOffset = out.count
        out.reserveCapacity(out.count + 4 + table.count * 8 + 20 + 64)
        out.appendBigEndian(UInt32(truncatingIfNeeded: table.count))
        for block in table {
            out.appendBigEndian(UInt32(truncatingIfNeeded: block.address))
            out.appendBigEndian(UInt32(truncatingIfNeeded: block.length))
        }
        out.appendBigEndian(UInt32(0))  // free list: no entries ...
        out.append(contentsOf: [UInt8](repeating: 0, count: 16))  // ... and two empty pointers
        let indexLength = out.count - indexOffset
        let variablesOffset = out.count
        out.appendBigEndian(UInt32(truncatingIfNeeded: variables.count))
        for variable in variables {
            out.appendBigEndian(variable.block)
            let name = Array(variable.name.utf8)
            out.append(UInt8(truncatingIfNeeded: name.count))
            out.append(contentsOf: name)
        }
        let variablesLength = out.count - variablesOffset
        guard out.count <= Int(UInt32.max) else { throw .outputTooLarge(byteCount: out.count) }

        var header = BomLayout.magic
        header.appendBigEndian(BomLayout.version)
        header.appendBigEndian(UInt32(truncatingIfNeeded: table.count - 1))  // blocks after the null one
        header.appendBigEndian(UInt32(truncatingIfNeeded: indexOffset))
        header.appendBigEndian(UInt32(truncatingIfNeeded: indexLength))
        header.appendBigEndian(UInt32(truncatingIfNeeded: variablesOffset))
        header.appendBigEndian(UInt32(truncatingIfNeeded: variablesLength))
        out.replaceSubrange(0..<BomLayout.headerSize, with: header)
        return out
    }
}
