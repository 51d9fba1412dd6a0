/// Writes B+trees the way the Bom's trees are shaped: a "tree" block over fixed-size nodes.
///
/// Leaves hold (pageSize - 12) / 8 entries (510 for 4096-byte pages), are padded to the page size
/// and chained forward and backward; when there is more than one leaf, branch levels are added,
/// each branch entry pointing at a child node and keyed by that child's last key, until one node
/// holds the level (go-macos-pkg docs and pkg/bom; bomutils mkbom; stuckliste docs).
enum TreeBuilder {
    /// One entry: index0 is the value (leaf) or child node (branch), index1 the key block.
    typealias Entry = (index0: UInt32, index1: UInt32)

    /// Writes the tree and returns the index of its "tree" block.
    static func build(
        _ entries: [Entry], pageSize: Int, pathCount: UInt32, into store: inout BlockStore
    ) -> UInt32 {
        let perNode = BomLayout.entriesPerNode(pageSize: pageSize)
        if entries.isEmpty {
            let leaf = store.add(node(isLeaf: true, entries[...], forward: 0, backward: 0, pageSize: pageSize))
            return store.add(treeBlock(root: leaf, pageSize: pageSize, pathCount: pathCount))
        }
        // Leaves first, reserved so each can name its neighbours.
        let leafCount = (entries.count + perNode - 1) / perNode
        var leaves: [UInt32] = []
        leaves.reserveCapacity(leafCount)
        for _ in 0..<leafCount { leaves.append(store.reserve(length: pageSize)) }
        var level: [Entry] = []
        level.reserveCapacity(leafCount)
        for (number, leaf) in leaves.enumerated() {
            let chunk = entries[(number * perNode)..<min((number + 1) * perNode, entries.count)]
            let forward = number + 1 < leaves.count ? leaves[number + 1] : 0
            let backward = number > 0 ? leaves[number - 1] : 0
            store.fill(leaf, with: node(isLeaf: true, chunk, forward: forward, backward: backward, pageSize: pageSize))
            level.append((leaf, chunk[chunk.endIndex - 1].index1))
        }
        // Branch levels until one node holds the level.
        var root = leaves[0]
        while level.count > 1 {
            var next: [Entry] = []
            var start = 0
            while start < level.count {
                let chunk = level[start..<min(start + perNode, level.count)]
                let branch = store.add(node(isLeaf: false, chunk, forward: 0, backward: 0, pageSize: pageSize))
                next.append((branch, chunk[chunk.endIndex - 1].index1))
                start += perNode
            }
            level = next
            root = level[0].index0
        }
        return store.add(treeBlock(root: root, pageSize: pageSize, pathCount: pathCount))
    }

    /// A "tree" block: magic, version 1, root node, page size, path count, one zero byte.
    static func treeBlock(root: UInt32, pageSize: Int, pathCount: UInt32) -> [UInt8] {
        var bytes = BomLayout.treeMagic
        bytes.reserveCapacity(BomLayout.treeBlockSize)
        bytes.appendBigEndian(UInt32(1))
        bytes.appendBigEndian(root)
        bytes.appendBigEndian(UInt32(truncatingIfNeeded: pageSize))
        bytes.appendBigEndian(pathCount)
        bytes.append(0)
        return bytes
    }

    /// A node padded to the page size.
    static func node(
        isLeaf: Bool, _ entries: ArraySlice<Entry>, forward: UInt32, backward: UInt32, pageSize: Int
    ) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(pageSize)
        bytes.appendBigEndian(UInt16(isLeaf ? 1 : 0))
        bytes.appendBigEndian(UInt16(truncatingIfNeeded: entries.count))
        bytes.appendBigEndian(forward)
        bytes.appendBigEndian(backward)
        for entry in entries {
            bytes.appendBigEndian(entry.index0)
            bytes.appendBigEndian(entry.index1)
        }
        bytes.append(contentsOf: [UInt8](repeating: 0, count: pageSize - bytes.count))
        return bytes
    }
}
