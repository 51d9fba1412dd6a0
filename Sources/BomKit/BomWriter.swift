/// Writes a Bom as pkgbuild writes one for a payload.
///
/// Variables `BomInfo`, `Paths`, `HLIndex`, `VIndex`, `Size64`, in that order. Path ids are
/// 1, 2, 3, … in input order (the caller's walk order, parents first); the Paths leaves are sorted
/// by (parent id, name bytes), the order lsbom requires. Same input, same bytes.
package enum BomWriter {
    /// Encodes `entries` (parents before children; the first is the root ".").
    package static func write(_ entries: [BomEntry]) throws(BomError) -> [UInt8] {
        let paths = try resolve(entries)
        // About 230 bytes and 7 blocks per path, as pkgbuild lays them out (701,133 blocks for
        // 100,103 paths): a table reserved too small doubles, to 9.6 MB there.
        var store = BlockStore(expectedBytes: entries.count * 240 + 65_536, expectedBlocks: entries.count * 7 + 4096)

        // BomInfo: version 1, paths + 1, one info entry whose third word is the bytes of all files
        // and link targets (mkbom counts both), kept to 32 bits.
        var totalBytes: UInt64 = 0
        for entry in entries where entry.kind == .file || entry.kind == .symlink {
            totalBytes &+= entry.size
        }
        var info: [UInt8] = []
        info.appendBigEndian(UInt32(1))
        info.appendBigEndian(UInt32(truncatingIfNeeded: entries.count + 1))
        info.appendBigEndian(UInt32(1))
        info.appendBigEndian(UInt32(0))
        info.appendBigEndian(UInt32(0))
        info.appendBigEndian(UInt32(truncatingIfNeeded: totalBytes))
        info.appendBigEndian(UInt32(0))
        let infoBlock = store.add(info)

        // Per path: its record, its PathInfo (id, record), its File (parent id, name, NUL).
        var recordBlocks: [UInt32] = []
        var pathEntries: [TreeBuilder.Entry] = []
        recordBlocks.reserveCapacity(entries.count)
        pathEntries.reserveCapacity(entries.count)
        for (index, entry) in entries.enumerated() {
            let record = PathRecord(
                kind: entry.kind, mode: entry.mode, uid: entry.uid, gid: entry.gid,
                modificationTime: entry.modificationTime, size32: UInt32(truncatingIfNeeded: entry.size),
                checksumOrDevice: entry.kind == .device ? (entry.device ?? 0) : entry.checksum,
                linkTarget: entry.linkTarget.map { Array($0.utf8) })
            let recordBlock = store.add(record.encoded())
            var pathInfo: [UInt8] = []
            pathInfo.appendBigEndian(UInt32(truncatingIfNeeded: index + 1))
            pathInfo.appendBigEndian(recordBlock)
            let pathInfoBlock = store.add(pathInfo)
            var file: [UInt8] = []
            file.appendBigEndian(paths[index].parentID)
            file.append(contentsOf: paths[index].name)
            file.append(0)
            let fileBlock = store.add(file)
            recordBlocks.append(recordBlock)
            pathEntries.append((pathInfoBlock, fileBlock))
        }

        let order = entries.indices.sorted { left, right in
            let a = paths[left]
            let b = paths[right]
            return a.parentID != b.parentID ? a.parentID < b.parentID : a.name.lexicographicallyPrecedes(b.name)
        }
        let pathsTree = TreeBuilder.build(
            order.map { pathEntries[$0] }, pageSize: BomLayout.pageSize,
            pathCount: UInt32(truncatingIfNeeded: entries.count), into: &store)

        // HLIndex: one entry per path (BomEntry has no hard links), keyed by the record block,
        // valued with a block naming an empty 64-byte tree of its own.
        var hardLinkEntries: [TreeBuilder.Entry] = []
        hardLinkEntries.reserveCapacity(entries.count)
        for index in order {
            let subtree = TreeBuilder.build(
                [], pageSize: BomLayout.hardLinkSubtreePageSize, pathCount: 0, into: &store)
            var value: [UInt8] = []
            value.appendBigEndian(subtree)
            var key: [UInt8] = []
            key.appendBigEndian(recordBlocks[index])
            hardLinkEntries.append((store.add(value), store.add(key)))
        }
        let hardLinkTree = TreeBuilder.build(
            hardLinkEntries, pageSize: BomLayout.pageSize,
            pathCount: UInt32(truncatingIfNeeded: hardLinkEntries.count), into: &store)

        // VIndex: 1, an empty 128-byte tree, 0, one zero byte.
        let virtualTree = TreeBuilder.build(
            [], pageSize: BomLayout.virtualIndexPageSize, pathCount: 0, into: &store)
        var virtualIndex: [UInt8] = []
        virtualIndex.appendBigEndian(UInt32(1))
        virtualIndex.appendBigEndian(virtualTree)
        virtualIndex.appendBigEndian(UInt32(0))
        virtualIndex.append(0)
        let virtualIndexBlock = store.add(virtualIndex)

        // Size64: files of 4 GiB and more, keyed by record block, valued with the 64-bit size.
        var bigFiles: [TreeBuilder.Entry] = []
        for index in order where entries[index].kind == .file && entries[index].size > UInt64(UInt32.max) {
            var value: [UInt8] = []
            value.appendBigEndian(entries[index].size)
            var key: [UInt8] = []
            key.appendBigEndian(recordBlocks[index])
            bigFiles.append((store.add(value), store.add(key)))
        }
        let size64Tree = TreeBuilder.build(
            bigFiles, pageSize: BomLayout.pageSize,
            pathCount: UInt32(truncatingIfNeeded: bigFiles.count), into: &store)

        return try store.serialize(variables: [
            (BomLayout.bomInfoName, infoBlock),
            (BomLayout.pathsName, pathsTree),
            (BomLayout.hardLinkIndexName, hardLinkTree),
            (BomLayout.virtualIndexName, virtualIndexBlock),
            (BomLayout.size64Name, size64Tree),
        ])
    }

    /// Checks every entry and finds each one's parent id and name.
    private static func resolve(_ entries: [BomEntry]) throws(BomError) -> [(parentID: UInt32, name: [UInt8])] {
        let limits = BomLimits()
        guard let root = entries.first else {
            throw .invalidEntry(index: 0, path: "", reason: "no entries; the root \".\" must come first")
        }
        guard root.path == "." else {
            throw .invalidEntry(index: 0, path: root.path, reason: "the first entry must be the root \".\"")
        }
        guard entries.count <= limits.maxEntries else {
            throw .invalidEntry(
                index: limits.maxEntries, path: entries[limits.maxEntries].path,
                reason: "more than \(limits.maxEntries) entries")
        }
        var idOfPath: [String: Int] = [:]
        idOfPath.reserveCapacity(entries.count)
        var resolved: [(parentID: UInt32, name: [UInt8])] = []
        resolved.reserveCapacity(entries.count)
        for (index, entry) in entries.enumerated() {
            func fail(_ reason: String) -> BomError { .invalidEntry(index: index, path: entry.path, reason: reason) }
            if let problem = kindProblem(entry) { throw fail(problem) }
            guard entry.path.utf8.count <= limits.maxPathBytes else {
                throw fail("path longer than \(limits.maxPathBytes) bytes")
            }
            let parentPath: String
            let name: [UInt8]
            if index == 0 {
                guard entry.kind == .directory else { throw fail("the root must be a directory") }
                parentPath = ""
                name = [0x2E]
            } else {
                let bytes = Array(entry.path.utf8)
                guard bytes.count > 2, bytes[0] == 0x2E, bytes[1] == 0x2F else {
                    throw fail("path must be \".\" or start with \"./\"")
                }
                let lastSlash = bytes.lastIndex(of: 0x2F) ?? 1
                name = Array(bytes[(lastSlash + 1)...])
                if let problem = PathName.problem(with: name, maxBytes: limits.maxNameBytes) { throw fail(problem) }
                parentPath = lastSlash == 1 ? "." : String(decoding: bytes[..<lastSlash], as: UTF8.self)
            }
            guard idOfPath[entry.path] == nil else { throw fail("duplicate path") }
            var parentID: UInt32 = 0
            if index > 0 {
                guard let parent = idOfPath[parentPath] else {
                    throw fail("parent \(parentPath) is not an earlier entry")
                }
                guard entries[parent].kind == .directory else { throw fail("parent \(parentPath) is not a directory") }
                parentID = UInt32(truncatingIfNeeded: parent + 1)
            }
            idOfPath[entry.path] = index
            resolved.append((parentID, name))
        }
        return resolved
    }

    /// Why an entry's fields disagree with its kind, or nil.
    private static func kindProblem(_ entry: BomEntry) -> String? {
        guard BomLayout.modeMatches(entry.mode, kind: entry.kind) else {
            return "mode 0o\(String(entry.mode, radix: 8)) does not match kind \(entry.kind)"
        }
        switch entry.kind {
        case .symlink:
            guard let target = entry.linkTarget, !target.isEmpty else { return "symlink without a target" }
            guard !target.utf8.contains(0) else { return "link target contains NUL" }
            guard target.utf8.count <= BomLimits().maxPathBytes else { return "link target too long" }
        case .device:
            guard entry.device != nil else { return "device without a device number" }
            guard entry.checksum == 0 else {
                return "a device's checksum field holds its device number; checksum must be 0"
            }
            guard entry.size <= UInt64(UInt32.max) else { return "device size above 32 bits" }
        case .file, .directory:
            break
        }
        if entry.kind != .symlink, entry.linkTarget != nil { return "link target on a \(entry.kind)" }
        if entry.kind != .device, entry.device != nil { return "device number on a \(entry.kind)" }
        if entry.kind != .file, entry.size > UInt64(UInt32.max) { return "only files may be 4 GiB or larger" }
        return nil
    }
}
