import IAPSystem

/// Reads a Bom B+tree strictly: every node reached once, depth capped, entries capped, leaves in
/// key order chained by their forward links, each branch entry keyed by its child's last key.
struct TreeWalker {
    /// One leaf entry with where it was found.
    struct LeafEntry {
        var index0: UInt32
        var index1: UInt32
        var leaf: UInt32
        var slot: Int
    }

    /// The tree block's fields.
    struct Header {
        var root: UInt32
        var pageSize: UInt32
        var pathCount: UInt32
    }

    private let file: BomFile
    private let limits: BomLimits
    private let treeName: String
    private var visited: Set<UInt32> = []
    private var leaves: [(block: UInt32, forward: UInt32)] = []
    private(set) var entries: [LeafEntry] = []

    /// Reads the tree whose "tree" block is `treeBlock` and returns its entries in leaf order.
    static func entries(ofTree treeBlock: UInt32, named name: String, in file: BomFile, limits: BomLimits)
        throws(BomError) -> [LeafEntry]
    {
        let header = try readHeader(treeBlock, named: name, in: file)
        var walker = TreeWalker(file: file, limits: limits, treeName: name)
        // Room for the entries declared, if the Bom could hold them (every entry names two blocks).
        walker.entries = Array(largeCapacity: min(Int(header.pathCount), limits.maxEntries, file.blockCount))
        _ = try walker.walk(header.root, depth: 1, isRoot: true)
        // Leaves must chain forward in key order, the last pointing nowhere.
        for (number, leaf) in walker.leaves.enumerated() {
            let expected = number + 1 < walker.leaves.count ? walker.leaves[number + 1].block : 0
            guard leaf.forward == expected else {
                throw .badNode(block: leaf.block, reason: "forward link \(leaf.forward), expected \(expected)")
            }
        }
        guard Int(header.pathCount) == walker.entries.count else {
            throw .badTree(
                block: treeBlock,
                reason: "declares \(header.pathCount) entries, its leaves hold \(walker.entries.count)")
        }
        return walker.entries
    }

    /// Decodes a "tree" block.
    static func readHeader(_ treeBlock: UInt32, named name: String, in file: BomFile) throws(BomError) -> Header {
        let bytes = try file.block(treeBlock, from: "variable \(name)")
        guard bytes.count >= BomLayout.treeBlockSize else {
            throw .blockTooShort(
                index: treeBlock, holding: "a tree", length: bytes.count, minimum: BomLayout.treeBlockSize)
        }
        guard bytes.prefix(4).elementsEqual(BomLayout.treeMagic) else {
            throw .badTree(block: treeBlock, reason: "does not start with \"tree\"")
        }
        let version = BomFile.u32(bytes, 4)
        guard version == 1 else { throw .badTree(block: treeBlock, reason: "version \(version), expected 1") }
        return Header(root: BomFile.u32(bytes, 8), pageSize: BomFile.u32(bytes, 12), pathCount: BomFile.u32(bytes, 16))
    }

    private init(file: BomFile, limits: BomLimits, treeName: String) {
        self.file = file
        self.limits = limits
        self.treeName = treeName
    }

    /// Walks the subtree at `node`; returns its last key (index1), nil for an empty root leaf.
    private mutating func walk(_ node: UInt32, depth: Int, isRoot: Bool) throws(BomError) -> UInt32? {
        guard depth <= limits.maxTreeDepth else { throw .treeTooDeep(block: node, limit: limits.maxTreeDepth) }
        guard visited.insert(node).inserted else { throw .treeCycle(block: node) }
        let bytes = try file.block(node, from: "\(treeName) tree")
        guard bytes.count >= BomLayout.nodeHeaderSize else {
            throw .blockTooShort(
                index: node, holding: "a tree node", length: bytes.count, minimum: BomLayout.nodeHeaderSize)
        }
        let flag = BomFile.u16(bytes, 0)
        let count = Int(BomFile.u16(bytes, 2))
        guard flag <= 1 else { throw .badNode(block: node, reason: "leaf flag \(flag), expected 0 or 1") }
        let needed = BomLayout.nodeHeaderSize + count * BomLayout.nodeEntrySize
        guard needed <= bytes.count else {
            throw .blockTooShort(
                index: node, holding: "a node of \(count) entries", length: bytes.count, minimum: needed)
        }
        func entry(_ slot: Int) -> (UInt32, UInt32) {
            let offset = BomLayout.nodeHeaderSize + slot * BomLayout.nodeEntrySize
            return (BomFile.u32(bytes, offset), BomFile.u32(bytes, offset + 4))
        }
        if flag == 1 {
            guard count > 0 || isRoot else { throw .badNode(block: node, reason: "empty leaf below the root") }
            guard entries.count + count <= limits.maxEntries else { throw .tooManyEntries(limit: limits.maxEntries) }
            leaves.append((node, BomFile.u32(bytes, 4)))
            for slot in 0..<count {
                let (index0, index1) = entry(slot)
                entries.append(LeafEntry(index0: index0, index1: index1, leaf: node, slot: slot))
            }
            return count > 0 ? entry(count - 1).1 : nil
        }
        guard count > 0 else { throw .badNode(block: node, reason: "branch without entries") }
        var last: UInt32 = 0
        for slot in 0..<count {
            let (child, key) = entry(slot)
            let childLast = try walk(child, depth: depth + 1, isRoot: false)
            guard childLast == key else {
                throw .badNode(
                    block: node, reason: "entry \(slot) keyed \(key), but its child's last key is \(childLast ?? 0)")
            }
            last = key
        }
        return last
    }
}
