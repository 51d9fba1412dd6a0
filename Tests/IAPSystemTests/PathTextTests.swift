import IAPSystem
import Testing

/// Paths are split at "/" bytes, as the kernel splits them, not at grapheme boundaries.
@Suite struct PathTextTests {
    @Test func aSlashBeforeACombiningMarkStillSeparates() {
        #expect(PathText.components("../\u{301}x") == ["..", "\u{301}x"])
        #expect(PathText.components("a//b/") == ["a", "", "b", ""])
        #expect(PathText.components("a//b/", omittingEmpty: true) == ["a", "b"])
        #expect(PathText.components("") == [""])
    }

    @Test func prefixesAreBytes() {
        #expect(PathText.isAbsolute("/\u{301}etc"))
        #expect(!PathText.isAbsolute("\u{301}/etc"))
        #expect(PathText.startsWithDotSlash("./\u{301}x"))
        #expect(PathText.droppingDotSlash("./\u{301}x") == "\u{301}x")
        #expect(PathText.droppingDotSlash("a/b") == "a/b")
    }
}
