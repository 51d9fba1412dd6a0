import Testing

@testable import BomKit

@Suite struct BomTreeTests {
    private func entry(_ path: String, _ kind: BomEntry.Kind = .file) -> BomEntry {
        switch kind {
        case .directory: BomEntry(path: path, kind: .directory, mode: 0o40755)
        case .symlink:
            BomEntry(
                path: path, kind: .symlink, mode: 0o120755, size: 1,
                checksum: BomChecksum.checksum(of: Array("x".utf8)), linkTarget: "x")
        default: BomEntry(path: path, kind: .file, mode: 0o100644, size: UInt64(path.utf8.count), checksum: 9)
        }
    }

    /// Names whose byte order differs from a plain path sort: "a-b" and "a!" sort before "a/…" as
    /// strings, but a folder's entries must follow it first.
    private func tangledTree() -> [BomEntry] {
        [
            entry(".", .directory), entry("./b"), entry("./a-b"), entry("./a", .directory), entry("./a/x", .directory),
            entry("./a/x/y"), entry("./a!"), entry("./Contents", .directory), entry("./Contents/é"),
            entry("./Contents/link", .symlink), entry("./a/x/z", .directory), entry("./a/x/z/deep"),
        ]
    }

    @Test func depthFirstWalkListsEachFolderBeforeItsSiblings() throws {
        let tree = try BomReader.readTree(try BomWriter.write(tangledTree()))
        var paths: [String] = []
        tree.forEachDepthFirst { path, _ in paths.append(String(decoding: path, as: UTF8.self)) }
        #expect(
            paths == [
                "Contents", "Contents/link", "Contents/é", "a", "a/x", "a/x/y", "a/x/z", "a/x/z/deep", "a!", "a-b", "b",
            ])
    }

    @Test func walkGivesEveryNodeOnceWithItsRecord() throws {
        let entries = tangledTree()
        let tree = try BomReader.readTree(try BomWriter.write(entries))
        var seen: [String: BomTree.Node] = [:]
        tree.forEachDepthFirst { path, node in seen["./" + String(decoding: path, as: UTF8.self)] = node }
        #expect(seen.count == entries.count - 1)
        for entry in entries.dropFirst() {
            let node = try #require(seen[entry.path])
            #expect(node.kind == entry.kind)
            #expect(node.mode == entry.mode)
            #expect(node.size == entry.size)
            #expect(node.checksum == entry.checksum)
            #expect(tree.linkTarget(of: node) == entry.linkTarget)
        }
    }

    @Test func readAndReadTreeAgree() throws {
        let bytes = try BomWriter.write(RoundTripTests.realisticTree())
        let tree = try BomReader.readTree(bytes)
        let entries = try BomReader.read(bytes)
        #expect(tree.nodes.count == entries.count)
        #expect(zip(tree.nodes, entries).allSatisfy { $0.kind == $1.kind && $0.size == $1.size && $0.mode == $1.mode })
    }

    @Test func onlyTheRootHasNoChildrenWalkWhenEmpty() throws {
        let tree = try BomReader.readTree(try BomWriter.write([entry(".", .directory)]))
        var count = 0
        tree.forEachDepthFirst { _, _ in count += 1 }
        #expect(count == 0)
    }

    @Test func pathIDIndexTakesDenseAndSparseIDs() {
        var index = PathIDIndex(capacity: 4)
        let inserted = [
            index.insert(1, at: 0), index.insert(3, at: 1), index.insert(4_000_000_000, at: 2),
            index.insert(3, at: 5), index.insert(4_000_000_000, at: 6),
        ]
        #expect(inserted == [true, true, true, false, false])
        #expect(index.index(of: 1) == 0)
        #expect(index.index(of: 3) == 1)
        #expect(index.index(of: 2) == nil)
        #expect(index.index(of: 23) == nil)
        #expect(index.index(of: 4_000_000_000) == 2)
        #expect(index.index(of: 4_000_000_001) == nil)
    }
}
