import IAPCore
import IAPRules

/// Entry names and paths (`entry-*`): absolute, odd or long paths, duplicates and collisions.
extension ContentRules {
    static func checkNames(_ entries: EntryList, _ findings: inout [Finding]) {
        for (index, entry) in entries.enumerated() {
            if PathText.isAbsolute(entry.rawPath) {
                findings.append(
                    Rule.entryAbsolutePath.finding(
                        entry,
                        "the path is absolute; every path must be relative to the content root (ContentInfo.plist, Contents/…)"
                    ))
                continue
            }
            if let (rule, problem) = entry.components.lazy.compactMap(EntryNameRules.brokenRule(by:)).first {
                findings.append(
                    rule.finding(
                        entry,
                        "the path \(problem); rename it (traversal and odd names are refused so nothing lands outside the content folder)"
                    ))
                continue
            }
            let pathBytes = entries.paths[index].utf8.count
            if pathBytes > EntryNameRules.maxPathBytes {
                findings.append(
                    Rule.entryPathLength.finding(
                        entry,
                        "the path is \(pathBytes) bytes; at most \(EntryNameRules.maxPathBytes) are allowed — shorten it"
                    ))
            }
            if entry.components.contains(where: EntryNameRules.hasBidiControl) {
                findings.append(
                    Rule.entryBidi.finding(
                        entry,
                        "the name holds a bidirectional control character that can make it display as something else; rename it"
                    ))
            }
            if entry.hasExtendedAttributes {
                findings.append(
                    Rule.entryXattr.finding(
                        entry,
                        "the entry carries extended attributes; they are never restored on unpack"))
            }
            if entry.hasFlags {
                findings.append(
                    Rule.entryFlags.finding(
                        entry,
                        "the entry carries file flags; they are never restored on unpack"))
            }
        }
    }

    static func checkUniqueness(_ entries: EntryList, _ findings: inout [Finding]) {
        // Positions, not copies (a package can hold a million entries): each table keeps the first
        // entry of each key, and keys are compared through the entries' own paths.
        let paths = entries.paths
        var exact = PathTable(capacity: entries.count)
        var canonical = PathTable(capacity: entries.count)
        var folded = PathTable(capacity: entries.count)
        for (index, entry) in entries.enumerated() where !entry.components.isEmpty {
            let path = paths[index]
            let sameBytes = exact.firstOrInsert(hash: ExactPath(path).hashValue, position: index) {
                paths[$0].utf8.elementsEqual(path.utf8)
            }
            if let first = sameBytes {
                findings.append(
                    Rule.entryDuplicate.finding(
                        entry,
                        "the path appears more than once (first as \(entries[first].kind.name)); keep one"))
                continue
            }
            if let other = canonical.firstOrInsert(
                hash: path.hashValue, position: index, isEqual: { paths[$0] == path })
            {
                findings.append(
                    Rule.entryUnicodeCollision.finding(
                        entry,
                        "the name equals '\(entries[other].reportedPath)' after Unicode normalisation; on Apple file systems they are the same file — rename one"
                    ))
                continue
            }
            let lower = path.lowercased()
            if let other = folded.firstOrInsert(
                hash: lower.hashValue, position: index, isEqual: { paths[$0].lowercased() == lower })
            {
                findings.append(
                    Rule.entryCaseCollision.finding(
                        entry,
                        "the name differs from '\(entries[other].reportedPath)' only in case; on a case-insensitive volume one hides the other"
                    ))
            }
        }
    }
}
