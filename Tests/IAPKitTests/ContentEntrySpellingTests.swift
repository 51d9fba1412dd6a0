import Testing

@testable import IAPKit

/// An entry that keeps its caller's spelling (a TOC's path) answers every question as one that
/// does not: only where the string lives differs.
@Suite struct ContentEntrySpellingTests {
    @Test func keepingTheSpellingChangesNoAnswer() {
        for raw in [
            "Contents/art/a.png", "./Contents/art/a.png", ".", "", "Contents/caf\u{E9}", "Contents//x", "Contents/",
            "/abs/x", "./",
        ] {
            let kept = ContentEntry(rawPath: raw, kind: .file, keepingSpelling: true)
            let plain = ContentEntry(rawPath: raw, kind: .file)
            #expect(kept == plain, "\(raw)")
            #expect(kept.path == plain.path, "\(raw)")
            #expect(kept.rawPath == plain.rawPath, "\(raw)")
            #expect(kept.reportedPath == plain.reportedPath, "\(raw)")
            #expect(kept.storedPathIfDifferent == plain.storedPathIfDifferent, "\(raw)")
        }
    }

    @Test func changedComponentsAreThePathAfterward() {
        var entry = ContentEntry(rawPath: "Contents/a", kind: .file, keepingSpelling: true)
        entry.components = ["Contents", "b"]
        #expect(entry.path == "Contents/b")
        #expect(entry.rawPath == "Contents/b")
        entry.rawPath = "./Contents/b"
        #expect(entry.path == "Contents/b")
        #expect(entry.rawPath == "./Contents/b")
    }

    @Test func aSpellingThatIsNotTheJoinedComponentsIsKeptAsBefore() {
        // Components from a TOC's nesting need not spell the stored path (an encoded name).
        let entry = ContentEntry(
            rawPath: "Contents/a%2Fb", components: ["Contents", "a/b"], kind: .file, keepingSpelling: true)
        #expect(entry.path == "Contents/a/b")
        #expect(entry.rawPath == "Contents/a%2Fb")
        #expect(entry.storedPathIfDifferent == "Contents/a%2Fb")
    }
}
