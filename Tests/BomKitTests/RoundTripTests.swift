import IAPTestSupport
import Testing

@testable import BomKit

@Suite struct RoundTripTests {
    /// A content package's tree, parents before children, in pkgbuild's (parent id, name) order.
    static func realisticTree() -> [BomEntry] {
        let time: UInt32 = 1_704_164_645
        return [
            BomEntry(path: ".", kind: .directory, mode: 0o40755, uid: 0, gid: 0, modificationTime: time, size: 128),
            BomEntry(
                path: "./ContentInfo.plist", kind: .file, mode: 0o100644, uid: 0, gid: 0, modificationTime: time,
                size: 412, checksum: 0x1234_5678),
            BomEntry(
                path: "./Contents", kind: .directory, mode: 0o40755, uid: 0, gid: 80, modificationTime: time + 1,
                size: 160),
            BomEntry(
                path: "./Contents/Images", kind: .directory, mode: 0o40755, uid: 0, gid: 80, modificationTime: time + 2,
                size: 128),
            BomEntry(
                path: "./Contents/current", kind: .symlink, mode: 0o120755, uid: 0, gid: 80, modificationTime: time + 3,
                size: 10, checksum: BomChecksum.checksum(of: Array("level1.dat".utf8)), linkTarget: "level1.dat"),
            BomEntry(
                path: "./Contents/level1.dat", kind: .file, mode: 0o100600, uid: 501, gid: 20,
                modificationTime: time + 4,
                size: 0, checksum: 0xFFFF_FFFF),
            BomEntry(
                path: "./Contents/é-unicode.txt", kind: .file, mode: 0o100644, uid: 0, gid: 80, modificationTime: time,
                size: UInt64(UInt32.max), checksum: 7),
            BomEntry(
                path: "./Contents/Images/a.png", kind: .file, mode: 0o100644, uid: 0, gid: 80, modificationTime: time,
                size: 70_000, checksum: 0xDEAD_BEEF),
            BomEntry(
                path: "./Contents/Images/b.png", kind: .file, mode: 0o100444, uid: 0, gid: 80, modificationTime: 0,
                size: 1, checksum: 1),
        ]
    }

    @Test func realisticTreeComesBackFieldForField() throws {
        let entries = Self.realisticTree()
        #expect(try BomReader.read(try BomWriter.write(entries)) == entries)
    }

    @Test func walkOrderInputComesBackInTreeOrder() throws {
        // Depth-first input (ids 1…n in this order): the leaves still sort by (parent id, name).
        let tree = Self.realisticTree()
        let depthFirst = [tree[0], tree[2], tree[3], tree[8], tree[7], tree[5], tree[4], tree[6], tree[1]]
        let read = try BomReader.read(try BomWriter.write(depthFirst))
        // ids: "."=1, Contents=2, Images=3, …: sorted by (parent id, name bytes) that is the original order.
        #expect(read == tree)
        #expect(depthFirst.sortedForTree() == tree)
    }

    @Test func twentyThousandEntriesSplitIntoALeveledTree() throws {
        var entries = [BomEntry(path: ".", kind: .directory, mode: 0o40755, size: 96)]
        for directory in 0..<20 {
            entries.append(
                BomEntry(path: "./d\(directory)", kind: .directory, mode: 0o40755, modificationTime: UInt32(directory)))
        }
        var generator = SeededGenerator(seed: 1)
        for number in 0..<(20_000 - 21) {
            let size = generator.next() % 100_000
            entries.append(
                BomEntry(
                    path: "./d\(number % 20)/file-\(number).bin", kind: .file, mode: 0o100644,
                    uid: 0, gid: 80, modificationTime: UInt32(number), size: size,
                    checksum: UInt32(truncatingIfNeeded: generator.next())))
        }
        let bytes = try BomWriter.write(entries)
        let read = try BomReader.read(bytes)
        #expect(read.count == 20_000)
        #expect(read == entries.sortedForTree())
        #expect(read[0].path == "." && read[1].path == "./d0" && read[2].path == "./d1" && read[3].path == "./d10")

        // 20,000 / 510 per leaf → 40 leaves under one branch node.
        let bom = BomBytes(bytes: bytes)
        let root = bom.blockBytes(bom.treeRoot("Paths"))
        #expect(root[0..<4] == [0, 0, 0, 40])
        let firstLeaf = bom.blockBytes(Int(bom.u32(bom.block(bom.treeRoot("Paths")).lowerBound + 12)))
        #expect(firstLeaf[0..<4] == [0, 1, 0x01, 0xFE])  // leaf, 510 entries
    }

    @Test func threeLevelTreeWalksInOrder() throws {
        // Tiny 36-byte pages hold 3 entries: 100 entries need 34 leaves, 12 branches, 4, 2, 1.
        var store = BlockStore()
        let keys = (0..<100).map { _ in store.add([1]) }
        let tree = TreeBuilder.build(keys.map { ($0, $0) }, pageSize: 36, pathCount: 100, into: &store)
        let file = try BomFile(try store.serialize(variables: [("T", tree)]), limits: BomLimits())
        let walked = try TreeWalker.entries(ofTree: tree, named: "T", in: file, limits: BomLimits())
        #expect(walked.map(\.index1) == keys)
        #expect {
            _ = try TreeWalker.entries(ofTree: tree, named: "T", in: file, limits: BomLimits(maxTreeDepth: 4))
        } throws: { error in
            if case .treeTooDeep = error as? BomError { return true }
            return false
        }
    }

    @Test func devicesKeepTheirNumber() throws {
        let entries = [
            BomEntry(path: ".", kind: .directory, mode: 0o40755),
            BomEntry(path: "./null", kind: .device, mode: 0o20666, device: 0x0300_0002),
        ]
        #expect(try BomReader.read(try BomWriter.write(entries)) == entries)
    }
}

extension Array where Element == BomEntry {
    /// The order the Paths tree stores: ids are input positions; sort by (parent id, name bytes).
    func sortedForTree() -> [BomEntry] {
        var idOf: [String: Int] = [:]
        for (index, entry) in enumerated() { idOf[entry.path] = index + 1 }
        func key(_ entry: BomEntry) -> (Int, [UInt8]) {
            guard entry.path != "." else { return (0, [UInt8](".".utf8)) }
            let slash = entry.path.lastIndex(of: "/")!
            let parent = String(entry.path[..<slash])
            return (idOf[parent == "." ? "." : parent]!, [UInt8](entry.path[entry.path.index(after: slash)...].utf8))
        }
        return sorted { a, b in
            let ka = key(a)
            let kb = key(b)
            return ka.0 != kb.0 ? ka.0 < kb.0 : ka.1.lexicographicallyPrecedes(kb.1)
        }
    }
}
