/// Why a Bom could not be read or written; every case names the place (byte offset, block index or
/// entry) and the problem.
package enum BomError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The input is larger than `BomLimits.maxBytes`.
    case tooLarge(byteCount: Int, limit: Int)
    /// The input ends before the 32-byte header does.
    case truncatedHeader(byteCount: Int)
    /// The first 8 bytes are not "BOMStore".
    case badMagic(found: [UInt8])
    /// The header's version (offset 8) is not 1.
    case unsupportedVersion(UInt32)
    /// A region the header or a table names lies (partly) outside the file.
    case rangeOutsideFile(what: String, offset: UInt64, length: UInt64, fileSize: Int)
    /// The block table or free list (at `offset`) is malformed.
    case malformedBlockTable(offset: Int, reason: String)
    /// The variable table (at `offset`) is malformed.
    case malformedVariables(offset: Int, reason: String)
    /// A required variable is missing.
    case missingVariable(name: String)
    /// A block index is 0 (the null block) or points past the block table.
    case blockIndexOutOfRange(index: UInt32, blockCount: Int, referencedFrom: String)
    /// A block's address range lies outside the file or over the header.
    case blockOutsideFile(index: UInt32, address: UInt32, length: UInt32, fileSize: Int)
    /// A block is shorter than what it must hold.
    case blockTooShort(index: UInt32, holding: String, length: Int, minimum: Int)
    /// The BomInfo block is inconsistent.
    case badBomInfo(block: UInt32, reason: String)
    /// A "tree" block is malformed.
    case badTree(block: UInt32, reason: String)
    /// A tree node (Paths block) is malformed.
    case badNode(block: UInt32, reason: String)
    /// A B-tree goes deeper than `BomLimits.maxTreeDepth`.
    case treeTooDeep(block: UInt32, limit: Int)
    /// A tree node is reached twice (a cycle or a shared node).
    case treeCycle(block: UInt32)
    /// A tree holds more entries than `BomLimits.maxEntries`.
    case tooManyEntries(limit: Int)
    /// A Paths leaf entry is not after the one before it in (parent id, name) order.
    case keyOutOfOrder(block: UInt32, entry: Int)
    /// A PathInfo block (id, record index) is malformed or its id repeats.
    case badPathInfo(block: UInt32, reason: String)
    /// A path record is malformed.
    case badRecord(block: UInt32, reason: String)
    /// A File block (parent id, name) holds a bad name.
    case badName(block: UInt32, reason: String)
    /// A path's parent id names no path.
    case orphan(id: UInt32, parentID: UInt32, name: String)
    /// A path's parent is not a directory.
    case parentNotDirectory(path: String, parent: String)
    /// The parent chain of a path loops.
    case parentCycle(id: UInt32)
    /// There is not exactly one root ("." with parent id 0).
    case badRoot(reason: String)
    /// A rebuilt path is longer than `BomLimits.maxPathBytes`.
    case pathTooLong(path: String, limit: Int)
    /// The Size64 tree is malformed or disagrees with a path record.
    case badSize64(block: UInt32, reason: String)
    /// The writer was given an entry it cannot store (index into its input, and the path).
    case invalidEntry(index: Int, path: String, reason: String)
    /// The written Bom would not fit the format's 32-bit offsets.
    case outputTooLarge(byteCount: Int)

    /// One line saying what is wrong and where.
    package var description: String {
        switch self {
        case .tooLarge(let byteCount, let limit):
            "Bom is \(byteCount) bytes, above the limit of \(limit)"
        case .truncatedHeader(let byteCount):
            "Bom is \(byteCount) bytes, shorter than its 32-byte header"
        case .badMagic(let found):
            "Bom does not start with \"BOMStore\" at offset 0 (found \(hex(found)))"
        case .unsupportedVersion(let version):
            "Bom header at offset 8 has version \(version); only 1 exists"
        case .rangeOutsideFile(let what, let offset, let length, let fileSize):
            "\(what) at offset \(offset), length \(length), runs past the end of the \(fileSize)-byte Bom"
        case .malformedBlockTable(let offset, let reason):
            "block table at offset \(offset): \(reason)"
        case .malformedVariables(let offset, let reason):
            "variable table at offset \(offset): \(reason)"
        case .missingVariable(let name):
            "Bom has no \"\(name)\" variable"
        case .blockIndexOutOfRange(let index, let blockCount, let referencedFrom):
            "block index \(index) (from \(referencedFrom)) is the null block 0 or outside the block table of \(blockCount) blocks"
        case .blockOutsideFile(let index, let address, let length, let fileSize):
            "block \(index) at offset \(address), length \(length), lies outside the \(fileSize)-byte Bom or over its header"
        case .blockTooShort(let index, let holding, let length, let minimum):
            "block \(index) holds \(holding) in \(length) bytes; it needs at least \(minimum)"
        case .badBomInfo(let block, let reason):
            "BomInfo block \(block): \(reason)"
        case .badTree(let block, let reason):
            "tree block \(block): \(reason)"
        case .badNode(let block, let reason):
            "tree node block \(block): \(reason)"
        case .treeTooDeep(let block, let limit):
            "tree node block \(block) lies deeper than \(limit) levels"
        case .treeCycle(let block):
            "tree node block \(block) is reached twice: the tree loops or shares nodes"
        case .tooManyEntries(let limit):
            "a tree holds more than \(limit) entries"
        case .keyOutOfOrder(let block, let entry):
            "Paths leaf block \(block), entry \(entry): not after the previous entry in (parent id, name) order, or a duplicate"
        case .badPathInfo(let block, let reason):
            "path info block \(block): \(reason)"
        case .badRecord(let block, let reason):
            "path record block \(block): \(reason)"
        case .badName(let block, let reason):
            "path name block \(block): \(reason)"
        case .orphan(let id, let parentID, let name):
            "path \"\(name)\" (id \(id)) names parent id \(parentID), which no path has"
        case .parentNotDirectory(let path, let parent):
            "\(path): its parent \(parent) is not a directory"
        case .parentCycle(let id):
            "the parent chain of path id \(id) loops"
        case .badRoot(let reason):
            "root entry: \(reason)"
        case .pathTooLong(let path, let limit):
            "\(path): longer than \(limit) bytes"
        case .badSize64(let block, let reason):
            "Size64 block \(block): \(reason)"
        case .invalidEntry(let index, let path, let reason):
            "entry \(index) (\(path)): \(reason)"
        case .outputTooLarge(let byteCount):
            "the Bom would be \(byteCount) bytes, beyond the format's 32-bit offsets"
        }
    }
}

private func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef")
    var text = ""
    for byte in bytes {
        text.append(digits[Int(byte >> 4)])
        text.append(digits[Int(byte & 0x0F)])
    }
    return text
}
