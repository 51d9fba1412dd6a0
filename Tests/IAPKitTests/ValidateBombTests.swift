import Foundation
import IAPKitTestSupport
import IAPRules
import IAPSystem
import IAPTestSupport
import Testing

/// What a tree package's data may cost or where it may lie, in hand-made packages judged in process
/// by the validator the CLI calls: bombs refused from the declared numbers where they suffice and
/// stopped at the declared size where not, and data on entries that hold none (the unpacked-size
/// cap and its option through the binary are EndToEndTests' ValidateCLITests).
@Suite(.onTestThreads) struct ValidateBombTests {
    let scratch = ScratchFolder()

    /// Declares 100 GiB from a few stored bytes: refused from the numbers alone, before any decoding.
    @Test func honestBombRefusedBeforeDecoding() throws {
        var node = XarNode.file("zeros.bin", [UInt8](repeating: 0, count: 1 << 20))
        node.declaredSize = 100 << 30
        let path = try scratch.hostileTree("bomb", [node])
        let run = try Validate.expectError(path, Rule.sizeDeclaredBomb, entry: "Contents/zeros.bin")
        #expect(run.seconds < Validate.refusedBeforeDecodingSeconds, "took \(run.seconds) s")
        #expect(run.findings.first { $0.rule == "size-declared-bomb" }?.offset != nil, "\(run.dump)")
    }

    /// Declares 20 GiB from 24 MiB stored: a ratio deflate could reach, but a total over the 2 GiB
    /// unpacked cap, so it is refused from the numbers before decoding instead of inflating for minutes.
    @Test func plausibleRatioButHugeTotalRefusedBeforeDecoding() throws {
        var node = XarNode.file("huge.bin", try Fixtures.randomBytes(24 << 20))
        node.declaredSize = 20 << 30
        let path = try scratch.hostileTree("huge-total", [node])
        let run = try Validate.expectError(path, Rule.sizeUnpackedLimit)
        #expect(run.seconds < Validate.refusedBeforeDecodingSeconds, "took \(run.seconds) s")
        #expect(run.findings.filter { $0.rule == "size-unpacked-limit" }.count == 1, "\(run.dump)")
    }

    @Test func dataOnADirectoryOrSymlink() throws {
        var folder = XarNode.directory("sub", [.file("a.txt", text: "a")])
        folder.content = Array("hidden".utf8)
        try Validate.expectError(
            try scratch.hostileTree("dir-data", [folder]), Rule.entryDataNotFile, entry: "Contents/sub")
        var link = XarNode.symlink("l", to: "sub/a.txt")
        link.content = Array("hidden".utf8)
        try Validate.expectError(
            try scratch.hostileTree("link-data", [.directory("sub", [.file("a.txt", text: "a")]), link]),
            Rule.entryDataNotFile, entry: "Contents/l")
    }

    /// Declares 1,000 bytes but decodes to 32 MiB: decoding stops at the declared size.
    @Test func lyingBombStopsAtDeclaredSize() throws {
        var node = XarNode.file("zeros.bin", [UInt8](repeating: 0, count: 32 << 20))
        node.declaredSize = 1000
        let path = try scratch.hostileTree("liar", [node])
        let run = try Validate.expectError(path, Rule.xarDataSize, entry: "Contents/zeros.bin")
        #expect(run.findings.contains { $0.rule == "xar-data-size" && $0.message.contains("1000") }, "\(run.dump)")
    }
}
