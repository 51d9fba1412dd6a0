/// The writer's block heap: hands out block indices and lays the file out.
///
/// Layout (ours; nothing reads a Bom by offset): the 32-byte header padded to 512 bytes, every
/// block in index order, the block table, the free list (count 0 and two empty pointers, as Apple's
/// mkbom writes it per bomutils), then the variable table.
struct BlockStore {
    /// Header padding, then block bytes.
    private var data = [UInt8](repeating: 0, count: BomLayout.firstBlockOffset)
    /// (address, length) per block; block 0 is the null block. 32 bits each, as the file stores them.
    private var table: [(address: UInt32, length: UInt32)] = [(0, 0)]

    /// Room for about `bytes` of blocks in `blocks` blocks, so the store grows without copying
    /// itself (a Bom for 100,000 paths is over 20 MB).
    init(expectedBytes: Int = 0, expectedBlocks: Int = 0) {
        data.reserveCapacity(BomLayout.firstBlockOffset + expectedBytes)
        table.reserveCapacity(expectedBlocks + 1)
    }

    /// Appends a block and returns its index.
    mutating func add(_ bytes: [UInt8]) -> UInt32 {
        table.append((UInt32(truncatingIfNeeded: data.count), UInt32(truncatingIfNeeded: bytes.count)))
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
        precondition(bytes.count <= Int(block.length), "block \(index) overfilled")
        let address = Int(block.address)
        data.replaceSubrange(address..<(address + bytes.count), with: bytes)
    }

    /// The whole file, with `variables` (name, block index) in the given order.
    mutating func serialize(variables: [(name: String, block: UInt32)]) throws(BomError) -> [UInt8] {
        var out: [UInt8] = []
        swap(&out, &data)  // the blocks become the file: no copy
        let indexOffset = out.count
        out.reserveCapacity(out.count + 4 + table.count * 8 + 20 + 64)
        out.appendBigEndian(UInt32(truncatingIfNeeded: table.count))
        for block in table {
            out.appendBigEndian(block.address)
            out.appendBigEndian(block.length)
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
