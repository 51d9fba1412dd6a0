import Foundation
import IAPKitTestSupport
import IAPRules
import IAPTestSupport
import Testing

/// A "/" followed by a combining mark ("/\u{301}") is one grapheme to Swift's String but a separator
/// to the kernel, bsdtar and the installer: a link in a Payload or a tree cannot hide its ".." steps
/// inside such graphemes. Judged in process by the validator the CLI calls (EndToEndTests'
/// CombiningMarkPathTests has content folders through build and unpack).
@Suite(.onTestThreads) struct CombiningMarkLinkTests {
    let scratch = ScratchFolder()
    /// The link target that leaves the version folder past "\u{301}d" and "\u{301}e" (see CombiningMarkPathTests).
    static let hiddenSteps = "../\u{301}d/../\u{301}e/../../../x"

    @Test func aLinkHidingItsStepsEscapesInAPayload() throws {
        let path = try scratch.hostileProduct(
            "hidden-cpio",
            [
                .directory("./Contents/a"), .directory("./Contents/\u{301}d"), .directory("./Contents/\u{301}e"),
                .file("./Contents/x", text: "x"), .symlink("./Contents/a/l", to: Self.hiddenSteps),
            ])
        let run = try Validate.expectError(path, Rule.linkEscape, entry: "Contents/a/l")
        #expect(!run.rules.contains("entry-name-invalid"), "\(run.dump)")
    }

    @Test func aLinkHidingItsStepsEscapesInATree() throws {
        let path = try scratch.hostileTree(
            "hidden-tree",
            [
                .directory("a", [.symlink("l", to: Self.hiddenSteps)]), .directory("\u{301}d"), .directory("\u{301}e"),
                .file("x", text: "x"),
            ])
        let run = try Validate.expectError(path, Rule.linkEscape, entry: "Contents/a/l")
        #expect(!run.rules.contains("entry-name-invalid"), "\(run.dump)")
    }
}
