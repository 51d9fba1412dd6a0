import Testing

@testable import IAPKit

@Suite struct DepthFirstOrderTests {
    private func file(_ path: String) -> InspectReport.File {
        InspectReport.File(path: path, type: .file, size: 0, mode: "644", linkTarget: nil)
    }

    @Test func aFolderIsFollowedByItsEntriesBeforeAnySibling() {
        let paths = ["b", "a-b", "a/x/y", "a", "a/x", "a!", "Contents/é", "Contents", "a/"]
        let sorted = DepthFirstOrder.sorted(paths.map(file)).map(\.path)
        #expect(sorted == ["Contents", "Contents/é", "a", "a/", "a/x", "a/x/y", "a!", "a-b", "b"])
    }

    @Test func equalPathsKeepTheirOrder() {
        var first = file("same")
        first.size = 1
        var second = file("same")
        second.size = 2
        #expect(DepthFirstOrder.sorted([first, second]).map(\.size) == [1, 2])
        #expect(DepthFirstOrder.sorted([]).isEmpty)
    }

    @Test func modesAreOctal() {
        var modes = ModeText()
        #expect(modes.text(0o644) == "644")
        #expect(modes.text(0o4755) == "4755")
        #expect(modes.text(0o644) == "644")
        #expect(modes.text(0) == "0")
    }
}
