import Testing

@testable import IAPKit

/// PathTable and PathKinds answer as the dictionaries they replace: first (or last) entry per key,
/// keys equal as the caller says (colliding hashes included), Unicode-equivalent paths one key.
@Suite struct PathTableTests {
    @Test func firstOrInsertKeepsTheFirstPositionOfEachKey() {
        let keys = ["a", "b", "a", "c", "b", "a"]
        var table = PathTable(capacity: keys.count)
        let found = keys.indices.map { index in
            table.firstOrInsert(hash: keys[index].hashValue, position: index) { keys[$0] == keys[index] }
        }
        #expect(found == [nil, nil, 0, nil, 1, 0])
        #expect(table.first(hash: "c".hashValue) { keys[$0] == "c" } == 3)
        #expect(table.first(hash: "d".hashValue) { keys[$0] == "d" } == nil)
    }

    @Test func keysWhoseHashesCollideStayApart() {
        // Every key hashed alike: the table must probe on and tell them apart by the caller's equality.
        let keys = (0..<200).map { "key-\($0 % 50)" }
        var table = PathTable(capacity: keys.count)
        var firsts: [Int?] = []
        for index in keys.indices {
            firsts.append(table.firstOrInsert(hash: 42, position: index) { keys[$0] == keys[index] })
        }
        #expect(firsts == keys.indices.map { $0 < 50 ? nil : $0 % 50 })
        var last = PathTable(capacity: keys.count)
        for index in keys.indices { last.replace(hash: 7, position: index) { keys[$0] == keys[index] } }
        #expect(last.first(hash: 7) { keys[$0] == "key-3" } == 153)
    }

    @Test func pathKindsAnswerAsADictionaryOfPathsWould() {
        let entries = [
            ContentEntry(rawPath: ".", kind: .directory),
            ContentEntry(rawPath: "Contents", kind: .directory),
            ContentEntry(rawPath: "Contents/caf\u{E9}", kind: .file),
            ContentEntry(rawPath: "Contents/cafe\u{301}", kind: .symlink),  // the same path to String ==
            ContentEntry(rawPath: "Contents/a", kind: .file),
        ]
        let paths = entries.map(\.path)
        let positions = entries.indices.map { Int32($0) }
        let first = PathKinds(paths: paths, entries: entries, positions: positions, keepingFirst: true)
        let last = PathKinds(paths: paths, entries: entries, positions: positions, keepingFirst: false)
        var firstByDictionary: [String: ContentEntry.Kind] = [:]
        var lastByDictionary: [String: ContentEntry.Kind] = [:]
        for entry in entries.dropFirst() {
            if firstByDictionary[entry.path] == nil { firstByDictionary[entry.path] = entry.kind }
            lastByDictionary[entry.path] = entry.kind
        }
        for path in [
            "Contents", "Contents/caf\u{E9}", "Contents/cafe\u{301}", "Contents/a", "Contents/b", "", "contents",
        ] {
            #expect(first[path] == firstByDictionary[path], "\(path)")
            #expect(last[path] == lastByDictionary[path], "\(path)")
        }
        #expect(first["Contents/cafe\u{301}"] == .file)
        #expect(last["Contents/caf\u{E9}"] == .symlink)
        #expect(first[""] == nil, "the content root is not indexed")
    }
}
