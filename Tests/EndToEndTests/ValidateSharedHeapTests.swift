import Foundation
import IAPRules
import Testing

/// Identical files sharing one heap range, as `xar --coalesce-heap` writes them: accepted and decoded
/// once; partial overlaps and coinciding ranges that disagree stay errors.
@Suite(.onTestThreads) struct ValidateSharedHeapTests {
    let scratch = ScratchFolder()
    static let shared = String(repeating: "the same bytes in two files\n", count: 100)

    /// A tree whose last file, `b.txt`, points at `a.txt`'s heap range; `tweak` edits b's `<data>`.
    func coalesced(_ name: String, content: [UInt8] = Array(shared.utf8), tweak: @escaping (String) -> String = { $0 })
        throws -> String
    {
        try coalesced(
            name, HostileTree.nodes(contents: [.file("a.txt", content), .file("b.txt", content)]), tweak: tweak)
    }

    /// A tree of `nodes` whose last file with data points at the heap range of the file with data
    /// before it (its own bytes, last in the heap, are dropped); `tweak` edits the last `<data>`.
    func coalesced(_ name: String, _ nodes: [XarNode], tweak: @escaping (String) -> String = { $0 }) throws -> String {
        let path = scratch.at(name + ".pkg")
        try HostileTree.write(nodes, to: path) { xar in
            var droppedBytes = 0
            xar.editTOC = { xml in
                let blocks = xml.components(separatedBy: "<data>")
                guard blocks.count >= 3 else { return xml }
                let (earlier, last) = (blocks[blocks.count - 2], blocks[blocks.count - 1])
                func field(_ name: String, _ block: String) -> String {
                    block.components(separatedBy: "<\(name)>")[1].components(separatedBy: "</\(name)>")[0]
                }
                droppedBytes = Int(field("length", last)) ?? 0
                var moved = last.replacingOccurrences(
                    of: "<offset>\(field("offset", last))</offset>",
                    with: "<offset>\(field("offset", earlier))</offset>")
                moved = moved.replacingOccurrences(
                    of: "<length>\(field("length", last))</length>",
                    with: "<length>\(field("length", earlier))</length>")
                return blocks.dropLast().joined(separator: "<data>") + "<data>" + tweak(moved)
            }
            xar.editHeap = { heap in Array(heap.dropLast(droppedBytes)) }
        }
        return path
    }

    @Test func identicalFilesShareOneRange() throws {
        let path = try coalesced("coalesced")
        try Validate.expectClean(path)
        let root = scratch.at("root")
        let unpack = try Harness.run(["iapkg", "unpack", path, "--into", root])
        #expect(unpack.status == 0, "\(unpack.stderr)")
        for name in ["a.txt", "b.txt"] {
            #expect(
                try String(contentsOfFile: root + "/com.example.test/1.0/Contents/" + name, encoding: .utf8)
                    == Self.shared)
        }
    }

    @Test func contentInfoSharingTheRangeOfAnEarlierCopyIsStillRead() throws {
        // xar --coalesce-heap points ContentInfo.plist at an identical file listed before it.
        let plist = Fixtures.plist(product: "com.example.test", version: "1.0")
        let path = try coalesced(
            "plist-shared",
            [
                .directory("Contents", [.file("copy.plist", text: plist)]),
                .file("ContentInfo.plist", text: plist),
            ])
        let run = try Validate.run(path)
        #expect(run.status == 0, "\(run.dump)")
        #expect(run.document?.inputs.first?.productIdentifier == "com.example.test", "\(run.dump)")
    }

    @Test func sharedRangeThatDisagreesIsAnError() throws {
        let path = try coalesced("disagree") { block in
            block.replacingOccurrences(of: "application/x-gzip", with: "application/octet-stream")
        }
        let run = try Validate.expectError(path, Rule.xarDataOverlap)
        #expect(run.findings.contains { $0.message.contains("encoding differs") }, "\(run.dump)")
        let sizes = try coalesced("size") { block in
            block.replacingOccurrences(
                of: "<size>\(Self.shared.utf8.count)</size>", with: "<size>\(Self.shared.utf8.count - 1)</size>")
        }
        try Validate.expectError(sizes, Rule.xarDataOverlap)
    }

    @Test func executableBehindASharedRangeIsStillSeen() throws {
        // The shared bytes are judged once and the verdict holds for every file naming them.
        let run = try Validate.expectError(try coalesced("shared-elf", content: CodeSamples.elf), Rule.execElf)
        let named = Set(run.findings.filter { $0.rule == "exec-elf" }.compactMap(\.entry))
        #expect(named == ["Contents/a.txt", "Contents/b.txt"], "\(run.dump)")
        #expect(!run.rules.contains("xar-data-overlap"), "\(run.dump)")
    }
}
