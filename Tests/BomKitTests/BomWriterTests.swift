import BomKit
import Testing

@Suite struct BomWriterTests {
    static let mtime: UInt32 = 0x6594_7A05

    /// ".", "./ContentInfo.plist", "./Contents", "./Contents/link" → the layout's every block kind.
    static let small: [BomEntry] = [
        BomEntry(path: ".", kind: .directory, mode: 0o40755, uid: 0, gid: 0, modificationTime: mtime, size: 128),
        BomEntry(
            path: "./ContentInfo.plist", kind: .file, mode: 0o100644, uid: 0, gid: 0, modificationTime: mtime,
            size: 13, checksum: 0x535F_BD37),
        BomEntry(
            path: "./Contents", kind: .directory, mode: 0o40755, uid: 0, gid: 0, modificationTime: mtime, size: 96),
        BomEntry(
            path: "./Contents/link", kind: .symlink, mode: 0o120755, uid: 0, gid: 0, modificationTime: mtime,
            size: 9, checksum: 0x0DF2_2415, linkTarget: "hello.txt"),
    ]

    @Test func headerAndTablesAreLaidOutExactly() throws {
        let bom = BomBytes(bytes: try BomWriter.write(Self.small))
        // Blocks: 1 BomInfo; 2-13 record, path info, name for each of the 4 paths; 14 Paths leaf;
        // 15 Paths tree; 16-31 HLIndex (64-byte leaf, tree, value, key per path); 32 HLIndex leaf;
        // 33 HLIndex tree; 34 VIndex leaf; 35 VIndex tree; 36 VIndex; 37 Size64 leaf; 38 Size64 tree.
        #expect(bom.blockCount == 39)
        #expect(Array(bom.bytes[0..<8]) == Array("BOMStore".utf8))
        #expect(bom.u32(8) == 1)
        #expect(bom.u32(12) == 38)
        #expect(bom.u32(20) == 4 + 39 * 8 + 4 + 16)  // block table, free list with two empty pointers
        #expect(bom.u32(24) == bom.u32(16) + bom.u32(20))
        #expect(Int(bom.u32(24) + bom.u32(28)) == bom.bytes.count)
        #expect(bom.bytes[32..<512].allSatisfy { $0 == 0 })
        #expect(bom.block(1).lowerBound == 512)
        #expect(bom.u32(bom.tableEntryOffset(0)) == 0 && bom.u32(bom.tableEntryOffset(0) + 4) == 0)
        // Free list: count 0, then 16 zero bytes.
        let freeList = bom.indexOffset + 4 + 39 * 8
        #expect(bom.bytes[freeList..<(freeList + 20)].allSatisfy { $0 == 0 })

        // Variable table: count, then (block, name length, name) in Apple's order.
        var expectedVariables = be32(5)
        for (name, block) in [("BomInfo", 1), ("Paths", 15), ("HLIndex", 33), ("VIndex", 36), ("Size64", 38)] {
            expectedVariables += be32(UInt32(block)) + [UInt8(name.utf8.count)] + Array(name.utf8)
        }
        #expect(Array(bom.bytes[Int(bom.u32(24))...]) == expectedVariables)

        // BomInfo: version 1, paths + 1, one entry whose third word is file + link bytes.
        #expect(bom.blockBytes(1) == be32(1) + be32(5) + be32(1) + be32(0) + be32(0) + be32(13 + 9) + be32(0))
    }

    @Test func pathBlocksAreExact() throws {
        let bom = BomBytes(bytes: try BomWriter.write(Self.small))
        // Root directory record: 31 bytes.
        #expect(
            bom.blockBytes(2) == [2, 1] + be16(15) + be16(0o40755) + be32(0) + be32(0) + be32(Self.mtime)
                + be32(128) + [1] + be32(0) + be32(0))
        #expect(bom.blockBytes(3) == be32(1) + be32(2))  // path info: id 1, record block 2
        #expect(bom.blockBytes(4) == be32(0) + [0x2E, 0])  // name: parent 0, "."
        // File record: 35 bytes, four trailing zeros.
        #expect(
            bom.blockBytes(5) == [1, 1] + be16(15) + be16(0o100644) + be32(0) + be32(0) + be32(Self.mtime)
                + be32(13) + [1] + be32(0x535F_BD37) + be32(0) + be32(0))
        #expect(bom.blockBytes(7) == be32(1) + Array("ContentInfo.plist".utf8) + [0])
        // Symlink record: target, NUL, eight zeros.
        #expect(
            bom.blockBytes(11) == [3, 1] + be16(15) + be16(0o120755) + be32(0) + be32(0) + be32(Self.mtime)
                + be32(9) + [1] + be32(0x0DF2_2415) + be32(10) + Array("hello.txt".utf8) + [0]
                + [UInt8](repeating: 0, count: 8))
        #expect(bom.blockBytes(13) == be32(3) + Array("link".utf8) + [0])

        // Paths tree block and its one 4096-byte leaf, sorted by (parent id, name):
        // "." (0), "ContentInfo.plist" (1), "Contents" (1), "link" (3).
        #expect(bom.blockBytes(15) == Array("tree".utf8) + be32(1) + be32(14) + be32(4096) + be32(4) + [0])
        let leaf = bom.blockBytes(14)
        #expect(leaf.count == 4096)
        #expect(
            Array(leaf[0..<44]) == be16(1) + be16(4) + be32(0) + be32(0)
                + be32(3) + be32(4) + be32(6) + be32(7) + be32(9) + be32(10) + be32(12) + be32(13))
        #expect(leaf[44...].allSatisfy { $0 == 0 })

        // HLIndex: per path an empty 64-byte tree, a value naming it, a key naming the record.
        #expect(bom.blockBytes(16).count == 64 && bom.blockBytes(16)[0..<12] == [0, 1, 0, 0] + be32(0) + be32(0))
        #expect(bom.blockBytes(17) == Array("tree".utf8) + be32(1) + be32(16) + be32(64) + be32(0) + [0])
        #expect(bom.blockBytes(18) == be32(17))
        #expect(bom.blockBytes(19) == be32(2))
        #expect(bom.blockBytes(33) == Array("tree".utf8) + be32(1) + be32(32) + be32(4096) + be32(4) + [0])
        // VIndex: 1, its empty 128-byte tree, 0, one zero byte.
        #expect(bom.blockBytes(34).count == 128)
        #expect(bom.blockBytes(35) == Array("tree".utf8) + be32(1) + be32(34) + be32(128) + be32(0) + [0])
        #expect(bom.blockBytes(36) == be32(1) + be32(35) + be32(0) + [0])
        // Size64: empty.
        #expect(bom.blockBytes(38) == Array("tree".utf8) + be32(1) + be32(37) + be32(4096) + be32(0) + [0])
    }

    @Test func sameInputSameBytes() throws {
        let entries = RoundTripTests.realisticTree()
        let first = try BomWriter.write(entries)
        let second = try BomWriter.write(entries)
        #expect(first == second)
        var changed = entries
        changed[3].modificationTime += 1
        #expect(try BomWriter.write(changed) != first)
    }

    @Test func bigFilesGoToSize64() throws {
        let entries = [
            BomEntry(path: ".", kind: .directory, mode: 0o40755),
            BomEntry(path: "./huge", kind: .file, mode: 0o100644, size: 9 << 30, checksum: 1),
        ]
        let bytes = try BomWriter.write(entries)
        let bom = BomBytes(bytes: bytes)
        let leaf = bom.blockBytes(bom.treeRoot("Size64"))
        #expect(leaf[0..<4] == [0, 1, 0, 1])
        let value = Int(bom.u32(bom.block(bom.treeRoot("Size64")).lowerBound + 12))
        let key = Int(bom.u32(bom.block(bom.treeRoot("Size64")).lowerBound + 16))
        #expect(bom.blockBytes(value) == be32(2) + be32(1 << 30))  // 9 GiB, 64-bit big-endian
        #expect(bom.blockBytes(key) == be32(5))  // the record block of ./huge
        #expect(bom.u32(bom.block(5).lowerBound + 18) == 1 << 30)  // record keeps the size modulo 2^32
        #expect(try BomReader.read(bytes) == entries)
    }

    @Test(arguments: [
        ([BomEntry(path: "./a", kind: .directory, mode: 0o40755)], "root"),
        (
            [
                BomEntry(path: ".", kind: .directory, mode: 0o40755),
                BomEntry(path: "./a/b", kind: .file, mode: 0o100644),
            ], "parent"
        ),
        (
            [BomEntry(path: ".", kind: .directory, mode: 0o40755), BomEntry(path: "./a", kind: .file, mode: 0o40755)],
            "mode"
        ),
        (
            [
                BomEntry(path: ".", kind: .directory, mode: 0o40755),
                BomEntry(path: "./a", kind: .file, mode: 0o100644),
                BomEntry(path: "./a", kind: .file, mode: 0o100644),
            ], "duplicate"
        ),
        (
            [
                BomEntry(path: ".", kind: .directory, mode: 0o40755),
                BomEntry(path: "./a", kind: .file, mode: 0o100644),
                BomEntry(path: "./a/b", kind: .file, mode: 0o100644),
            ], "not a directory"
        ),
        (
            [
                BomEntry(path: ".", kind: .directory, mode: 0o40755),
                BomEntry(path: "./l", kind: .symlink, mode: 0o120755),
            ], "target"
        ),
        (
            [
                BomEntry(path: ".", kind: .directory, mode: 0o40755),
                BomEntry(path: "./..", kind: .directory, mode: 0o40755),
            ], "\"..\""
        ),
        (
            [BomEntry(path: ".", kind: .directory, mode: 0o40755), BomEntry(path: "a", kind: .file, mode: 0o100644)],
            "./"
        ),
        (
            [
                BomEntry(path: ".", kind: .directory, mode: 0o40755),
                BomEntry(path: "./a//b", kind: .file, mode: 0o100644),
            ], "parent"
        ),
    ])
    func rejectsEntriesItCannotStore(entries: [BomEntry], reasonContains: String) {
        #expect {
            _ = try BomWriter.write(entries)
        } throws: { error in
            guard case .invalidEntry(_, _, let reason) = error as? BomError else { return false }
            return reason.contains(reasonContains)
        }
    }
}
