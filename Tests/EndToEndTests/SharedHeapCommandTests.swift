import Foundation
import IAPRules
import Testing

/// Identical files sharing one heap range, as `xar --coalesce-heap` writes them, through the
/// binary: unpacked to both files, and a ContentInfo.plist in a shared range still read. The rules
/// on shared ranges are judged in process (IAPKitTests' ValidateSharedHeapTests).
@Suite(.onTestThreads) struct SharedHeapCommandTests {
    let scratch = ScratchFolder()
    static let shared = String(repeating: "the same bytes in two files\n", count: 100)

    @Test func identicalFilesShareOneRange() throws {
        let path = try scratch.coalescedTree("coalesced", content: Array(Self.shared.utf8))
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
        let path = try scratch.coalescedTree(
            "plist-shared",
            [
                .directory("Contents", [.file("copy.plist", text: plist)]),
                .file("ContentInfo.plist", text: plist),
            ])
        let run = try Validate.run(path)
        #expect(run.status == 0, "\(run.dump)")
        #expect(run.document?.inputs.first?.productIdentifier == "com.example.test", "\(run.dump)")
    }
}
