import Foundation
import Testing

/// Identical files sharing one heap range, as `xar --coalesce-heap` writes them: accepted and decoded
/// once; partial overlaps and coinciding ranges that disagree stay errors.
@Suite struct ValidateSharedHeapTests {
    let scratch = ScratchFolder()
    static let shared = String(repeating: "the same bytes in two files\n", count: 100)

    /// A tree whose last file, `b.txt`, points at `a.txt`'s heap range; `tweak` edits b's `<data>`.
    func coalesced(_ name: String, content: [UInt8] = Array(shared.utf8), tweak: @escaping (String) -> String = { $0 }) throws -> String {
        let path = scratch.at(name + ".pkg")
        try HostileTree.write(HostileTree.nodes(contents: [.file("a.txt", content), .file("b.txt", content)]), to: path) { xar in
            var droppedBytes = 0
            xar.editTOC = { xml in
                // The <data> blocks in document order: ContentInfo.plist, a.txt, b.txt.
                let blocks = xml.components(separatedBy: "<data>")
                guard blocks.count == 4 else { return xml }
                func field(_ name: String, _ block: String) -> String {
                    block.components(separatedBy: "<\(name)>")[1].components(separatedBy: "</\(name)>")[0]
                }
                droppedBytes = Int(field("length", blocks[3])) ?? 0
                var b = blocks[3].replacingOccurrences(of: "<offset>\(field("offset", blocks[3]))</offset>",
                                                       with: "<offset>\(field("offset", blocks[2]))</offset>")
                b = b.replacingOccurrences(of: "<length>\(field("length", blocks[3]))</length>",
                                           with: "<length>\(field("length", blocks[2]))</length>")
                return blocks[0..<3].joined(separator: "<data>") + "<data>" + tweak(b)
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
            #expect(try String(contentsOfFile: root + "/com.example.test/1.0/Contents/" + name, encoding: .utf8) == Self.shared)
        }
    }

    @Test func contentInfoSharingTheRangeOfAnEarlierCopyIsStillRead() throws {
        // xar --coalesce-heap points ContentInfo.plist at an identical file listed before it.
        let plist = Fixtures.plist(product: "com.example.test", version: "1.0")
        let path = scratch.at("plist-shared.pkg")
        try HostileTree.write([.directory("Contents", [.file("copy.plist", text: plist)]), .file("ContentInfo.plist", text: plist)], to: path) { xar in
            var dropped = 0
            xar.editTOC = { xml in
                let blocks = xml.components(separatedBy: "<data>")
                guard blocks.count == 3 else { return xml }
                func field(_ name: String, _ block: String) -> String {
                    block.components(separatedBy: "<\(name)>")[1].components(separatedBy: "</\(name)>")[0]
                }
                dropped = Int(field("length", blocks[2])) ?? 0
                let second = blocks[2].replacingOccurrences(of: "<offset>\(field("offset", blocks[2]))</offset>",
                                                            with: "<offset>\(field("offset", blocks[1]))</offset>")
                return blocks[0..<2].joined(separator: "<data>") + "<data>" + second
            }
            xar.editHeap = { heap in Array(heap.dropLast(dropped)) }
        }
        let run = try Validate.run(path)
        #expect(run.status == 0, "\(run.dump)")
        #expect(run.document?.inputs.first?.productIdentifier == "com.example.test", "\(run.dump)")
    }

    @Test func sharedRangeThatDisagreesIsAnError() throws {
        let path = try coalesced("disagree") { block in
            block.replacingOccurrences(of: "application/x-gzip", with: "application/octet-stream")
        }
        let run = try Validate.expectError(path, "xar-data-overlap")
        #expect(run.findings.contains { $0.message.contains("encoding differs") }, "\(run.dump)")
        let sizes = try coalesced("size") { block in
            block.replacingOccurrences(of: "<size>\(Self.shared.utf8.count)</size>", with: "<size>\(Self.shared.utf8.count - 1)</size>")
        }
        try Validate.expectError(sizes, "xar-data-overlap")
    }

    @Test func executableBehindASharedRangeIsStillSeen() throws {
        // The shared bytes are judged once and the verdict holds for every file naming them.
        let run = try Validate.expectError(try coalesced("shared-elf", content: CodeSamples.elf), "exec-elf")
        let named = Set(run.findings.filter { $0.rule == "exec-elf" }.compactMap(\.entry))
        #expect(named == ["Contents/a.txt", "Contents/b.txt"], "\(run.dump)")
        #expect(!run.rules.contains("xar-data-overlap"), "\(run.dump)")
    }
}
