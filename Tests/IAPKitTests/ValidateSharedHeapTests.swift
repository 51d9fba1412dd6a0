import Foundation
import IAPKitTestSupport
import IAPRules
import IAPTestSupport
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
        try scratch.coalescedTree(name, content: content, tweak: tweak)
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
