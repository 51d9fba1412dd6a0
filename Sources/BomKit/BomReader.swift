/// Reads a Bom strictly, rebuilding each path from its parent chain.
public enum BomReader {
    /// The Bom's paths in stored order: by (parent id, name), the root "." first.
    public static func read(_ bytes: [UInt8], limits: BomLimits = .init()) throws(BomError) -> [BomEntry] {
        let file = try BomFile(bytes, limits: limits)
        let infoBlock = try file.variable(BomLayout.bomInfoName)
        let pathsTree = try file.variable(BomLayout.pathsName)
        let leafEntries = try TreeWalker.entries(
            ofTree: pathsTree, named: BomLayout.pathsName, in: file, limits: limits)
        try checkBomInfo(infoBlock, pathCount: leafEntries.count, in: file)

        // Decode each leaf entry: PathInfo (id, record), File (parent id, name), the record.
        var nodes: [Node] = []
        nodes.reserveCapacity(leafEntries.count)
        var indexOfID: [UInt32: Int] = [:]
        indexOfID.reserveCapacity(leafEntries.count)
        var previousKey: (parentID: UInt32, name: ArraySlice<UInt8>)?
        for leafEntry in leafEntries {
            let info = try file.block(leafEntry.index0, from: "Paths leaf \(leafEntry.leaf) entry \(leafEntry.slot)")
            guard info.count >= 8 else {
                throw .blockTooShort(index: leafEntry.index0, holding: "a path info", length: info.count, minimum: 8)
            }
            let id = BomFile.u32(info, 0)
            let recordBlock = BomFile.u32(info, 4)
            guard id != 0 else { throw .badPathInfo(block: leafEntry.index0, reason: "path id 0") }
            guard indexOfID.updateValue(nodes.count, forKey: id) == nil else {
                throw .badPathInfo(block: leafEntry.index0, reason: "path id \(id) appears twice")
            }

            let fileBlock = leafEntry.index1
            let nameBytes = try file.block(fileBlock, from: "Paths leaf \(leafEntry.leaf) entry \(leafEntry.slot)")
            guard nameBytes.count >= 5 else {
                throw .blockTooShort(
                    index: fileBlock, holding: "a parent id and name", length: nameBytes.count, minimum: 5)
            }
            let parentID = BomFile.u32(nameBytes, 0)
            let name = nameBytes[(nameBytes.startIndex + 4)..<(nameBytes.endIndex - 1)]
            guard nameBytes[nameBytes.endIndex - 1] == 0, !name.contains(0) else {
                throw .badName(block: fileBlock, reason: "name is not one NUL-terminated string filling the block")
            }
            if parentID == 0 {
                guard name.elementsEqual([0x2E]) else {
                    throw .badName(block: fileBlock, reason: "a path with parent 0 must be \".\"")
                }
            } else if let problem = PathName.problem(with: Array(name), maxBytes: limits.maxNameBytes) {
                throw .badName(block: fileBlock, reason: problem)
            }
            guard let nameText = Self.text(name) else {
                throw .badName(block: fileBlock, reason: "name is not UTF-8")
            }
            if let previous = previousKey {
                let ordered =
                    previous.parentID != parentID
                    ? previous.parentID < parentID
                    : previous.name.lexicographicallyPrecedes(name)
                guard ordered else { throw .keyOutOfOrder(block: leafEntry.leaf, entry: leafEntry.slot) }
            }
            previousKey = (parentID, name)

            let record = try PathRecord.decode(
                try file.block(recordBlock, from: "path info block \(leafEntry.index0)"),
                block: recordBlock, maxTargetBytes: limits.maxPathBytes)
            nodes.append(Node(id: id, parentID: parentID, name: nameText, recordBlock: recordBlock, record: record))
        }

        let bigSizes = try size64(in: file, limits: limits)
        let paths = try rebuildPaths(nodes, indexOfID: indexOfID, limits: limits)

        var result: [BomEntry] = []
        result.reserveCapacity(nodes.count)
        var usedBigSizes = 0
        for (index, node) in nodes.enumerated() {
            let record = node.record
            var size = UInt64(record.size32)
            if let big = bigSizes[node.recordBlock] {
                guard record.kind == .file, UInt32(truncatingIfNeeded: big.size) == record.size32 else {
                    throw .badSize64(
                        block: big.valueBlock,
                        reason:
                            "size \(big.size) does not belong to the \(record.kind) record \(node.recordBlock) of size \(record.size32)"
                    )
                }
                size = big.size
                usedBigSizes += 1
            }
            var linkTarget: String?
            if let target = record.linkTarget {
                guard let text = String(validating: target, as: UTF8.self) else {
                    throw .badRecord(block: node.recordBlock, reason: "link target is not UTF-8")
                }
                linkTarget = text
            }
            result.append(
                BomEntry(
                    path: paths[index], kind: record.kind, mode: record.mode, uid: record.uid, gid: record.gid,
                    modificationTime: record.modificationTime, size: size,
                    checksum: record.kind == .device ? 0 : record.checksumOrDevice,
                    linkTarget: linkTarget, device: record.kind == .device ? record.checksumOrDevice : nil))
        }
        guard usedBigSizes == bigSizes.count else {
            throw .badSize64(
                block: (try? file.variable(BomLayout.size64Name)) ?? 0,
                reason: "\(bigSizes.count - usedBigSizes) entries name no path record")
        }
        return result
    }

    /// `bytes` as a String if they are UTF-8 (an ASCII name, the common case, is checked in one pass).
    private static func text(_ bytes: ArraySlice<UInt8>) -> String? {
        if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
        return String(validating: bytes, as: UTF8.self)
    }

    /// "parent/name", made in one allocation.
    private static func joined(_ parent: String, _ name: String) -> String {
        var parent = parent
        var name = name
        return parent.withUTF8 { head in
            name.withUTF8 { tail in
                String(unsafeUninitializedCapacity: head.count + 1 + tail.count) { buffer in
                    _ = buffer.initialize(fromContentsOf: head)
                    buffer[head.count] = UInt8(ascii: "/")
                    _ = UnsafeMutableBufferPointer(rebasing: buffer[(head.count + 1)...]).initialize(
                        fromContentsOf: tail)
                    return head.count + 1 + tail.count
                }
            }
        }
    }

    /// One decoded Paths leaf entry.
    private struct Node {
        var id: UInt32
        var parentID: UInt32
        var name: String
        var recordBlock: UInt32
        var record: PathRecord
    }

    /// BomInfo: version 1, path count + 1, info entries within the block.
    private static func checkBomInfo(_ block: UInt32, pathCount: Int, in file: BomFile) throws(BomError) {
        let bytes = try file.block(block, from: "variable BomInfo")
        guard bytes.count >= 12 else {
            throw .blockTooShort(index: block, holding: "BomInfo", length: bytes.count, minimum: 12)
        }
        let version = BomFile.u32(bytes, 0)
        guard version == 1 else { throw .badBomInfo(block: block, reason: "version \(version), expected 1") }
        let declaredPaths = BomFile.u32(bytes, 4)
        guard Int(declaredPaths) == pathCount + 1 else {
            throw .badBomInfo(
                block: block, reason: "declares \(declaredPaths) paths + 1; the Paths tree holds \(pathCount)")
        }
        let infoEntries = Int(BomFile.u32(bytes, 8))
        guard infoEntries <= (bytes.count - 12) / 16 else {
            throw .badBomInfo(block: block, reason: "\(infoEntries) info entries do not fit in \(bytes.count) bytes")
        }
    }

    /// Size64: record block → (64-bit size, where it was stored). Absent is fine.
    private static func size64(in file: BomFile, limits: BomLimits) throws(BomError) -> [UInt32: (
        size: UInt64, valueBlock: UInt32
    )] {
        guard let tree = file.variables[BomLayout.size64Name] else { return [:] }
        var sizes: [UInt32: (size: UInt64, valueBlock: UInt32)] = [:]
        for entry in try TreeWalker.entries(ofTree: tree, named: BomLayout.size64Name, in: file, limits: limits) {
            let value = try file.block(entry.index0, from: "Size64 leaf \(entry.leaf)")
            let key = try file.block(entry.index1, from: "Size64 leaf \(entry.leaf)")
            guard value.count >= 8 else {
                throw .blockTooShort(index: entry.index0, holding: "a 64-bit size", length: value.count, minimum: 8)
            }
            guard key.count >= 4 else {
                throw .blockTooShort(
                    index: entry.index1, holding: "a record block index", length: key.count, minimum: 4)
            }
            let size = UInt64(BomFile.u32(value, 0)) << 32 | UInt64(BomFile.u32(value, 4))
            guard sizes.updateValue((size, entry.index0), forKey: BomFile.u32(key, 0)) == nil else {
                throw .badSize64(block: entry.index1, reason: "record block \(BomFile.u32(key, 0)) appears twice")
            }
        }
        return sizes
    }

    /// "./a/b" for every node: exactly one root, every parent present and a directory, no loops.
    private static func rebuildPaths(_ nodes: [Node], indexOfID: [UInt32: Int], limits: BomLimits) throws(BomError)
        -> [String]
    {
        let roots = nodes.indices.filter { nodes[$0].parentID == 0 }
        guard roots.count == 1, let root = roots.first else {
            throw .badRoot(reason: "\(roots.count) paths have parent id 0; exactly one \".\" must")
        }
        guard nodes[root].record.kind == .directory else { throw .badRoot(reason: "\".\" is not a directory") }

        var paths = [String?](repeating: nil, count: nodes.count)
        var onChain = [Bool](repeating: false, count: nodes.count)
        paths[root] = "."
        var chain: [Int] = []
        for start in nodes.indices where paths[start] == nil {
            // Climb to a node whose path is known, marking the way to catch loops.
            chain.removeAll(keepingCapacity: true)
            var current = start
            while paths[current] == nil {
                guard !onChain[current] else { throw .parentCycle(id: nodes[current].id) }
                onChain[current] = true
                chain.append(current)
                guard let parent = indexOfID[nodes[current].parentID] else {
                    throw .orphan(id: nodes[current].id, parentID: nodes[current].parentID, name: nodes[current].name)
                }
                current = parent
            }
            // Come back down, building each path from its parent's.
            for index in chain.reversed() {
                guard let parent = indexOfID[nodes[index].parentID], let parentPath = paths[parent] else {
                    throw .parentCycle(id: nodes[index].id)
                }
                let path = Self.joined(parentPath, nodes[index].name)
                guard nodes[parent].record.kind == .directory else {
                    throw .parentNotDirectory(path: path, parent: parentPath)
                }
                guard path.utf8.count <= limits.maxPathBytes else {
                    throw .pathTooLong(path: String(path.prefix(80)) + "…", limit: limits.maxPathBytes)
                }
                paths[index] = path
                onChain[index] = false
            }
        }
        return paths.map { $0 ?? "" }
    }
}
