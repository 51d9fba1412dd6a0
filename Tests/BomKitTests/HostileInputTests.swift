import Testing

@testable import BomKit

/// Broken and hostile Boms: each gives its own error, none crashes or hangs.
@Suite struct HostileInputTests {
    static let valid: [UInt8] = try! BomWriter.write(RoundTripTests.realisticTree())

    func expectError(
        _ bytes: [UInt8], limits: BomLimits = .init(), _ expected: BomError,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            _ = try BomReader.read(bytes, limits: limits)
            Issue.record("read succeeded; expected \(expected)", sourceLocation: sourceLocation)
        } catch {
            #expect(error == expected, sourceLocation: sourceLocation)
            #expect(!error.description.isEmpty)
        }
    }

    func expectError(
        _ bytes: [UInt8], limits: BomLimits = .init(), matching: (BomError) -> Bool,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            _ = try BomReader.read(bytes, limits: limits)
            Issue.record("read succeeded", sourceLocation: sourceLocation)
        } catch {
            #expect(matching(error), "got \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func truncatedHeader() {
        expectError(Array(Self.valid.prefix(20)), .truncatedHeader(byteCount: 20))
        expectError([], .truncatedHeader(byteCount: 0))
    }

    @Test func truncatedBody() {
        let cut = Array(Self.valid.prefix(Self.valid.count / 2))
        let bom = BomBytes(bytes: Self.valid)
        expectError(
            cut,
            .rangeOutsideFile(
                what: "block table", offset: UInt64(bom.u32(16)),
                length: UInt64(bom.u32(20)), fileSize: cut.count))
    }

    @Test func badMagicAndVersion() {
        var bytes = Self.valid
        bytes[7] = UInt8(ascii: "X")
        expectError(bytes, .badMagic(found: Array("BOMStorX".utf8)))
        var bom = BomBytes(bytes: Self.valid)
        bom.setU32(2, at: 8)
        expectError(bom.bytes, .unsupportedVersion(2))
    }

    @Test func sizeCap() {
        expectError(Self.valid, limits: BomLimits(maxBytes: 1000), .tooLarge(byteCount: Self.valid.count, limit: 1000))
    }

    @Test func blockIndexOutOfRange() {
        var bom = BomBytes(bytes: Self.valid)
        bom.setU32(999_999, at: bom.variable("Paths").fieldOffset)
        expectError(
            bom.bytes,
            .blockIndexOutOfRange(index: 999_999, blockCount: bom.blockCount, referencedFrom: "variable Paths"))
        // The null block is never a valid reference.
        bom = BomBytes(bytes: Self.valid)
        bom.setU32(0, at: bom.variable("BomInfo").fieldOffset)
        expectError(
            bom.bytes, .blockIndexOutOfRange(index: 0, blockCount: bom.blockCount, referencedFrom: "variable BomInfo"))
    }

    @Test func blockOutsideFile() {
        var bom = BomBytes(bytes: Self.valid)
        let tree = bom.variable("Paths").block
        bom.setU32(0xFFFF_FF00, at: bom.tableEntryOffset(tree) + 4)
        expectError(
            bom.bytes,
            .blockOutsideFile(
                index: UInt32(tree), address: UInt32(bom.block(tree).lowerBound),
                length: 0xFFFF_FF00, fileSize: bom.bytes.count))
        // A block over the header.
        bom = BomBytes(bytes: Self.valid)
        bom.setU32(0, at: bom.tableEntryOffset(tree))
        expectError(
            bom.bytes, .blockOutsideFile(index: UInt32(tree), address: 0, length: 21, fileSize: bom.bytes.count))
    }

    @Test func blockTableClaimsTooManyBlocks() {
        var bom = BomBytes(bytes: Self.valid)
        bom.setU32(0xFFFF_FFFF, at: bom.indexOffset)
        expectError(bom.bytes) { if case .malformedBlockTable = $0 { true } else { false } }
    }

    @Test func treeNodeThatPointsAtItself() {
        var bom = BomBytes(bytes: Self.valid)
        let root = bom.treeRoot("Paths")
        let start = bom.block(root).lowerBound
        bom.bytes[start + 1] = 0  // a branch …
        bom.setU32(UInt32(root), at: start + 12)  // … whose first child is itself
        expectError(bom.bytes, .treeCycle(block: UInt32(root)))
    }

    @Test func leafChainThatSkips() {
        var bom = BomBytes(bytes: Self.valid)
        let root = bom.treeRoot("Paths")
        bom.setU32(UInt32(root), at: bom.block(root).lowerBound + 4)
        expectError(bom.bytes, .badNode(block: UInt32(root), reason: "forward link \(root), expected 0"))
    }

    @Test func leafCountBeyondItsBlock() {
        var bom = BomBytes(bytes: Self.valid)
        let root = bom.treeRoot("Paths")
        bom.bytes[bom.block(root).lowerBound + 2] = 0xFF
        expectError(
            bom.bytes,
            .blockTooShort(
                index: UInt32(root), holding: "a node of \(0xFF09) entries",
                length: 4096, minimum: 12 + 0xFF09 * 8))
    }

    @Test func entryCap() {
        expectError(Self.valid, limits: BomLimits(maxEntries: 5), .tooManyEntries(limit: 5))
    }

    @Test func pathCap() {
        expectError(Self.valid, limits: BomLimits(maxPathBytes: 20)) {
            if case .pathTooLong(_, 20) = $0 { true } else { false }
        }
    }

    @Test func bomInfoCountMismatch() {
        var bom = BomBytes(bytes: Self.valid)
        let info = bom.variable("BomInfo").block
        bom.setU32(3, at: bom.block(info).lowerBound + 4)
        expectError(bom.bytes, .badBomInfo(block: UInt32(info), reason: "declares 3 paths + 1; the Paths tree holds 9"))
    }

    @Test func hugeLinkLength() {
        var bom = BomBytes(bytes: Self.valid)
        // Record of "./Contents/current" is the 5th path's first block: 1 + 4 * 3 + 1 = 14.
        #expect(bom.bytes[bom.block(14).lowerBound] == 3)
        bom.setU32(0xFFFF_FFFF, at: bom.block(14).lowerBound + 27)
        expectError(bom.bytes, .badRecord(block: 14, reason: "link target length 4294967295 outside 2...1025"))
    }

    @Test func modeThatContradictsType() {
        var bom = BomBytes(bytes: Self.valid)
        bom.bytes[bom.block(5).lowerBound + 4] = 0o04 << 4  // ContentInfo.plist's mode now says directory
        bom.bytes[bom.block(5).lowerBound + 5] = 0
        expectError(bom.bytes, .badRecord(block: 5, reason: "mode 0o40000 does not match type file"))
    }

    // Crafted trees: keys in the given order, ids and parents as given.

    static func crafted(_ paths: [(id: UInt32, parent: UInt32, name: String, kind: BomEntry.Kind)]) throws -> [UInt8] {
        var store = BlockStore()
        let infoBlock = store.add(be32(1) + be32(UInt32(paths.count + 1)) + be32(0))
        var entries: [TreeBuilder.Entry] = []
        for path in paths {
            let mode: UInt16 = path.kind == .directory ? 0o40755 : 0o100644
            let record = store.add(
                PathRecord(
                    kind: path.kind, mode: mode, uid: 0, gid: 0, modificationTime: 0,
                    size32: 0, checksumOrDevice: 0, linkTarget: nil
                ).encoded())
            let pathInfo = store.add(be32(path.id) + be32(record))
            let file = store.add(be32(path.parent) + Array(path.name.utf8) + [0])
            entries.append((pathInfo, file))
        }
        let tree = TreeBuilder.build(entries, pageSize: 4096, pathCount: UInt32(paths.count), into: &store)
        return try store.serialize(variables: [("BomInfo", infoBlock), ("Paths", tree)])
    }

    @Test func craftedTreeReads() throws {
        let bytes = try Self.crafted([(1, 0, ".", .directory), (2, 1, "a", .directory), (3, 2, "b", .file)])
        #expect(try BomReader.read(bytes).map(\.path) == [".", "./a", "./a/b"])
    }

    @Test func parentCycle() throws {
        // "a" (id 2) lives in "b" (id 3), which lives in "a": keys stay in order.
        let bytes = try Self.crafted([(1, 0, ".", .directory), (3, 2, "b", .directory), (2, 3, "a", .directory)])
        expectError(bytes, .parentCycle(id: 3))
        let selfParent = try Self.crafted([(1, 0, ".", .directory), (2, 2, "a", .directory)])
        expectError(selfParent, .parentCycle(id: 2))
    }

    @Test func orphan() throws {
        let bytes = try Self.crafted([(1, 0, ".", .directory), (2, 7, "a", .file)])
        expectError(bytes, .orphan(id: 2, parentID: 7, name: "a"))
    }

    @Test func parentThatIsAFile() throws {
        let bytes = try Self.crafted([(1, 0, ".", .directory), (2, 1, "a", .file), (3, 2, "b", .file)])
        expectError(bytes, .parentNotDirectory(path: "./a/b", parent: "./a"))
    }

    @Test func keysOutOfOrderOrDuplicated() throws {
        let bytes = try Self.crafted([(1, 0, ".", .directory), (2, 1, "b", .file), (3, 1, "a", .file)])
        let bom = BomBytes(bytes: bytes)
        expectError(bytes, .keyOutOfOrder(block: UInt32(bom.treeRoot("Paths")), entry: 2))
        let duplicate = try Self.crafted([(1, 0, ".", .directory), (2, 1, "a", .file), (3, 1, "a", .file)])
        expectError(duplicate, .keyOutOfOrder(block: UInt32(BomBytes(bytes: duplicate).treeRoot("Paths")), entry: 2))
    }

    @Test func duplicateID() throws {
        let bytes = try Self.crafted([(1, 0, ".", .directory), (2, 1, "a", .file), (2, 1, "b", .file)])
        expectError(bytes) { if case .badPathInfo(_, "path id 2 appears twice") = $0 { true } else { false } }
    }

    @Test(arguments: ["a/b", "..", ".", ""])
    func badNames(name: String) throws {
        let bytes = try Self.crafted([(1, 0, ".", .directory), (2, 1, name, .file)])
        expectError(bytes) { if case .badName = $0 { true } else { false } }
    }

    @Test func rootProblems() throws {
        expectError(try Self.crafted([(1, 0, ".", .file)])) { if case .badRoot = $0 { true } else { false } }
        expectError(try Self.crafted([(1, 1, "a", .directory)])) { if case .badRoot = $0 { true } else { false } }
        expectError(try Self.crafted([(1, 0, "x", .directory)])) { if case .badName = $0 { true } else { false } }
    }

    @Test func missingPaths() throws {
        var store = BlockStore()
        let info = store.add(be32(1) + be32(1) + be32(0))
        expectError(try store.serialize(variables: [("BomInfo", info)]), .missingVariable(name: "Paths"))
    }
}
