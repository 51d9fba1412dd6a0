/// Links a Bom's path records into a tree: exactly one root, every parent present and a
/// directory, no loops, no path longer than the limit; then finds each node's run of children.
enum BomTreeCheck {
    /// Sets every node's `parent`; returns the root's index and the longest path below it ("a/b",
    /// in bytes). Checks in the order the reader always has (nodes in stored order, each climbing to
    /// a linked ancestor), so the same Bom fails the same way.
    static func linkParents(_ nodes: inout [BomTree.Node], ids: PathIDIndex, bytes: [UInt8], limits: BomLimits)
        throws(BomError) -> (root: Int, longestPath: Int)
    {
        let roots = nodes.indices.filter { nodes[$0].parentID == 0 }
        guard roots.count == 1, let root = roots.first else {
            throw .badRoot(reason: "\(roots.count) paths have parent id 0; exactly one \".\" must")
        }
        guard nodes[root].kind == .directory else { throw .badRoot(reason: "\".\" is not a directory") }

        // The length of "./a/b" per node, -1 until known.
        var lengths = [Int32](repeating: -1, count: nodes.count)
        var onChain = [Bool](repeating: false, count: nodes.count)
        lengths[root] = 1
        var longest = 1
        var chain: [Int] = []
        for start in nodes.indices where lengths[start] < 0 {
            // Climb to a node whose path is known, marking the way to catch loops.
            chain.removeAll(keepingCapacity: true)
            var current = start
            while lengths[current] < 0 {
                guard !onChain[current] else { throw .parentCycle(id: nodes[current].id) }
                onChain[current] = true
                chain.append(current)
                guard let parent = ids.index(of: nodes[current].parentID) else {
                    let node = nodes[current]
                    let start = Int(node.nameStart)
                    throw .orphan(
                        id: node.id, parentID: node.parentID,
                        name: String(decoding: bytes[start..<start + Int(node.nameLength)], as: UTF8.self))
                }
                current = parent
            }
            // Come back down, measuring each path from its parent's.
            for index in chain.reversed() {
                guard let parent = ids.index(of: nodes[index].parentID), lengths[parent] >= 0 else {
                    throw .parentCycle(id: nodes[index].id)
                }
                let length = Int(lengths[parent]) + 1 + Int(nodes[index].nameLength)
                guard nodes[parent].kind == .directory else {
                    let parentPath = BomTree.storedPath(parent, nodes: nodes, bytes: bytes)
                    throw .parentNotDirectory(path: path(index, below: parentPath, nodes, bytes), parent: parentPath)
                }
                guard length <= limits.maxPathBytes else {
                    let parentPath = BomTree.storedPath(parent, nodes: nodes, bytes: bytes)
                    let path = path(index, below: parentPath, nodes, bytes)
                    throw .pathTooLong(path: String(path.prefix(80)) + "…", limit: limits.maxPathBytes)
                }
                lengths[index] = Int32(length)
                longest = max(longest, length)
                nodes[index].parent = Int32(parent)
                onChain[index] = false
            }
        }
        return (root, max(0, longest - 2))  // without the "./"
    }

    /// The checked tree, with each node's children: stored order is by (parent id, name), so the
    /// children of one parent are one run of nodes, already in name order.
    static func tree(bytes: [UInt8], nodes: [BomTree.Node], root: Int, longestPath: Int) -> BomTree {
        var childStart = [Int32](repeating: 0, count: nodes.count)
        var childEnd = [Int32](repeating: 0, count: nodes.count)
        var index = 0
        while index < nodes.count {
            let parent = nodes[index].parent
            var end = index + 1
            while end < nodes.count && nodes[end].parent == parent { end += 1 }
            if parent >= 0 {
                childStart[Int(parent)] = Int32(index)
                childEnd[Int(parent)] = Int32(end)
            }
            index = end
        }
        return BomTree(
            bytes: bytes, nodes: nodes, root: root, longestPath: longestPath, childStart: childStart, childEnd: childEnd
        )
    }

    private static func path(_ index: Int, below parentPath: String, _ nodes: [BomTree.Node], _ bytes: [UInt8])
        -> String
    {
        let start = Int(nodes[index].nameStart)
        return parentPath + "/" + String(decoding: bytes[start..<start + Int(nodes[index].nameLength)], as: UTF8.self)
    }
}

/// Path id → node index: a plain array when the ids are dense (as every writer numbers them), a
/// dictionary otherwise, so a hostile id cannot make the table huge.
struct PathIDIndex {
    private var dense: [Int32] = []
    private var sparse: [UInt32: Int] = [:]
    private let denseLimit: Int

    init(capacity: Int) {
        denseLimit = 2 * capacity + 16
    }

    /// Records `id` at `index`; false when the id was already there.
    mutating func insert(_ id: UInt32, at index: Int) -> Bool {
        if Int(id) < denseLimit {
            if dense.count <= Int(id) { dense.append(contentsOf: repeatElement(-1, count: Int(id) + 1 - dense.count)) }
            guard dense[Int(id)] < 0 else { return false }
            dense[Int(id)] = Int32(index)
            return true
        }
        guard sparse[id] == nil else { return false }
        sparse[id] = index
        return true
    }

    /// The node index of `id`, nil when no node has it.
    func index(of id: UInt32) -> Int? {
        if Int(id) < denseLimit {
            guard Int(id) < dense.count, dense[Int(id)] >= 0 else { return nil }
            return Int(dense[Int(id)])
        }
        return sparse[id]
    }
}
