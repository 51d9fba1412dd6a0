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
        // Indices, not copies: a package can hold a million entries.
        var exact: [ExactPath: Int] = [:]
        var canonical: [String: Int] = [:]
        var folded: [String: Int] = [:]
        exact.reserveCapacity(entries.count)
        canonical.reserveCapacity(entries.count)  // grown by doubling, each held two tables at once
        folded.reserveCapacity(entries.count)
        for (index, entry) in entries.enumerated() where !entry.components.isEmpty {
            let path = entries.paths[index]
            if let first = exact[ExactPath(path)] {
                findings.append(
                    Rule.entryDuplicate.finding(
                        entry,
                        "the path appears more than once (first as \(entries[first].kind.name)); keep one"))
                continue
            }
            exact[ExactPath(path)] = index
            if let other = canonical[path] {
                findings.append(
                    Rule.entryUnicodeCollision.finding(
                        entry,
                        "the name equals '\(entries[other].reportedPath)' after Unicode normalisation; on Apple file systems they are the same file — rename one"
                    ))
                continue
            }
            canonical[path] = index
            let lower = path.lowercased()
            if let other = folded[lower] {
                findings.append(
                    Rule.entryCaseCollision.finding(
                        entry,
                        "the name differs from '\(entries[other].reportedPath)' only in case; on a case-insensitive volume one hides the other"
                    ))
            } else {
                folded[lower] = index
            }
        }
    }
}
