import IAPRules
import IAPSystem

/// Entry names and paths (`entry-*`): absolute, odd or long paths, duplicates and collisions.
extension ContentRules {
    static func checkNames(_ entries: EntryList, _ findings: inout FindingLog) {
        for (index, entry) in entries.enumerated() {
            if PathText.isAbsolute(entry.rawPath) {
                findings.report(
                    Rule.entryAbsolutePath.finding(
                        entry,
                        "the path is absolute; every path must be relative to the content root (ContentInfo.plist, Contents/…)"
                    ))
                continue
            }
            if let (rule, problem) = entry.components.lazy.compactMap(EntryNameRules.brokenRule(by:)).first {
                findings.report(
                    rule.finding(
                        entry,
                        "the path \(problem); rename it (traversal and odd names are refused so nothing lands outside the content folder)"
                    ))
                continue
            }
            let pathBytes = entries.paths[index].utf8.count
            if pathBytes > EntryNameRules.maxPathBytes {
                findings.report(
                    Rule.entryPathLength.finding(
                        entry,
                        "the path is \(pathBytes) bytes; at most \(EntryNameRules.maxPathBytes) are allowed — shorten it"
                    ))
            }
            if entry.components.contains(where: EntryNameRules.hasBidiControl) {
                findings.report(
                    Rule.entryBidi.finding(
                        entry,
                        "the name holds a bidirectional control character that can make it display as something else; rename it"
                    ))
            }
            if entry.hasExtendedAttributes {
                findings.report(
                    Rule.entryXattr.finding(
                        entry,
                        "the entry carries extended attributes; they are never restored on unpack"))
            }
            if entry.hasFlags {
                findings.report(
                    Rule.entryFlags.finding(
                        entry,
                        "the entry carries file flags; they are never restored on unpack"))
            }
        }
    }

    static func checkUniqueness(_ entries: EntryList, _ findings: inout FindingLog) {
        // Three passes, one table alive at a time (each 8 bytes a slot: a package can hold a million
        // entries): the same paths (byte for byte), then the same after Unicode normalisation among
        // the rest, then the same after case folding among what is left. Each entry is told against
        // the first entry of its key; the findings come out in entry order, as one pass would give them.
        let paths = entries.paths
        var told: [(index: Int, finding: Finding)] = []
        var excluded = [Bool](repeating: false, count: entries.count)
        firstOfEachKey(
            entries, excluding: &excluded, hash: { ExactPath(paths[$0]).hashValue },
            same: { a, b in ExactPath(paths[a]) == ExactPath(paths[b]) },
            tell: { index, first in
                told.append(
                    (
                        index,
                        Rule.entryDuplicate.finding(
                            entries[index],
                            "the path appears more than once (first as \(entries[first].kind.name)); keep one")
                    ))
            })
        firstOfEachKey(
            entries, excluding: &excluded, hash: { paths[$0].hashValue }, same: { a, b in paths[a] == paths[b] },
            tell: { index, other in
                told.append(
                    (
                        index,
                        Rule.entryUnicodeCollision.finding(
                            entries[index],
                            "the name equals '\(entries[other].reportedPath)' after Unicode normalisation; on Apple file systems they are the same file — rename one"
                        )
                    ))
            })
        var folded: (index: Int, text: String) = (-1, "")  // the entry being placed, lower-cased once
        func lowercased(_ index: Int) -> String {
            if folded.index != index { folded = (index, paths[index].lowercased()) }
            return folded.text
        }
        firstOfEachKey(
            entries, excluding: &excluded, hash: { lowercased($0).hashValue },
            same: { a, b in paths[a].lowercased() == lowercased(b) },
            tell: { index, other in
                told.append(
                    (
                        index,
                        Rule.entryCaseCollision.finding(
                            entries[index],
                            "the name differs from '\(entries[other].reportedPath)' only in case; on a case-insensitive volume one hides the other"
                        )
                    ))
            })
        told.sort { $0.index < $1.index }
        findings.report(told.map(\.finding))
    }

    /// One uniqueness pass: every entry not yet excluded whose key (hashed by `hash`, compared by
    /// `same(stored, new)`) an earlier one already holds is told with that first entry, and excluded.
    private static func firstOfEachKey(
        _ entries: EntryList, excluding excluded: inout [Bool], hash: (Int) -> Int, same: (Int, Int) -> Bool,
        tell: (_ index: Int, _ first: Int) -> Void
    ) {
        var table = PathTable(capacity: entries.count)
        for (index, entry) in entries.enumerated() where !entry.components.isEmpty && !excluded[index] {
            if let first = table.firstOrInsert(hash: hash(index), position: index, isEqual: { same($0, index) }) {
                tell(index, first)
                excluded[index] = true
            }
        }
    }
}
