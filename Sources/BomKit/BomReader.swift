import IAPSystem

/// Reads a Bom strictly, rebuilding each path from its parent chain.
package enum BomReader {
    /// The Bom's paths in stored order: by (parent id, name), the root "." first.
    package static func read(_ bytes: [UInt8], limits: BomLimits = .init()) throws(BomError) -> [BomEntry] {
        let tree = try readTree(bytes, limits: limits)
        var paths = [String](repeating: ".", count: tree.nodes.count)
        tree.forEachIndexDepthFirst { path, index in paths[index] = "./" + String(decoding: path, as: UTF8.self) }
        return tree.nodes.indices.map { index in
            let node = tree.nodes[index]
            return BomEntry(
                path: paths[index], kind: node.kind, mode: node.mode, uid: node.uid, gid: node.gid,
                modificationTime: node.modificationTime, size: node.size, checksum: node.checksum,
                linkTarget: tree.linkTarget(of: node), device: node.device)
        }
    }

    /// The Bom's paths as a ``BomTree``, with every check ``read(_:limits:)`` makes.
    package static func readTree(_ bytes: [UInt8], limits: BomLimits = .init()) throws(BomError) -> BomTree {
        let file = try BomFile(bytes, limits: limits)
        let infoBlock = try file.variable(BomLayout.bomInfoName)
        let pathsTree = try file.variable(BomLayout.pathsName)
        let leafEntries = try TreeWalker.entries(
            ofTree: pathsTree, named: BomLayout.pathsName, in: file, limits: limits)
        try checkBomInfo(infoBlock, pathCount: leafEntries.count, in: file)

        // Decode each leaf entry: PathInfo (id, record), File (parent id, name), the record.
        var nodes = [BomTree.Node](largeCapacity: leafEntries.count)
        var ids = PathIDIndex(capacity: leafEntries.count)
        var previousKey: (parentID: UInt32, name: ArraySlice<UInt8>)?
        for leafEntry in leafEntries {
            let info = try file.block(leafEntry.index0, from: "Paths leaf \(leafEntry.leaf) entry \(leafEntry.slot)")
            guard info.count >= 8 else {
                throw .blockTooShort(index: leafEntry.index0, holding: "a path info", length: info.count, minimum: 8)
            }
            let id = BomFile.u32(info, 0)
            let recordBlock = BomFile.u32(info, 4)
            guard id != 0 else { throw .badPathInfo(block: leafEntry.index0, reason: "path id 0") }
            guard ids.insert(id, at: nodes.count) else {
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
            } else if let problem = PathName.problem(with: name, maxBytes: limits.maxNameBytes) {
                throw .badName(block: fileBlock, reason: problem)
            }
            guard Self.isUTF8(name) else {
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

            let recordBytes = try file.block(recordBlock, from: "path info block \(leafEntry.index0)")
            let record = try PathRecord.decode(recordBytes, block: recordBlock, maxTargetBytes: limits.maxPathBytes)
            var node = BomTree.Node(
                kind: record.kind, mode: record.mode, uid: record.uid, gid: record.gid,
                modificationTime: record.modificationTime, size: UInt64(record.size32),
                checksumOrDevice: record.checksumOrDevice,
                nameStart: UInt32(name.startIndex), nameLength: UInt32(name.count), recordBlock: recordBlock,
                id: id, parentID: parentID)
            if let target = record.linkTarget {
                // decode took the target from just past the record's fixed fields.
                if String(validating: target, as: UTF8.self) != nil {
                    node.linkTargetStart = UInt32(recordBytes.startIndex + BomLayout.recordFixedSize)
                    node.linkTargetLength = UInt32(target.count)
                } else {
                    node.badLinkTarget = true
                }
            }
            nodes.append(node)
        }

        let bigSizes = try size64(in: file, limits: limits)
        let (root, longestPath) = try BomTreeCheck.linkParents(&nodes, ids: ids, bytes: bytes, limits: limits)

        var usedBigSizes = 0
        for index in nodes.indices {
            let node = nodes[index]
            if let big = bigSizes[node.recordBlock] {
                guard node.kind == .file, UInt32(truncatingIfNeeded: big.size) == UInt32(truncatingIfNeeded: node.size)
                else {
                    throw .badSize64(
                        block: big.valueBlock,
                        reason:
                            "size \(big.size) does not belong to the \(node.kind) record \(node.recordBlock) of size \(node.size)"
                    )
                }
                nodes[index].size = big.size
                usedBigSizes += 1
            }
            if node.badLinkTarget {
                throw .badRecord(block: node.recordBlock, reason: "link target is not UTF-8")
            }
        }
        guard usedBigSizes == bigSizes.count else {
            throw .badSize64(
                block: (try? file.variable(BomLayout.size64Name)) ?? 0,
                reason: "\(bigSizes.count - usedBigSizes) entries name no path record")
        }
        return BomTreeCheck.tree(bytes: bytes, nodes: nodes, root: root, longestPath: longestPath)
    }

    /// Whether `bytes` are UTF-8 (an ASCII name, the common case, is checked in one pass, no copy).
    private static func isUTF8(_ bytes: ArraySlice<UInt8>) -> Bool {
        if bytes.allSatisfy({ $0 < 0x80 }) { return true }
        return String(validating: bytes, as: UTF8.self) != nil
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
}
