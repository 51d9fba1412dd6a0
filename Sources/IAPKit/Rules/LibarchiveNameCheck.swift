import IAPRules
import IAPSystem
import XarKit

/// libarchive 3.x (bsdtar) decodes a base64 xar name only up to its first line break, and libxml2
/// breaks every name over 54 bytes: bsdtar extracts such names cut short, where Apple's xar,
/// xar 1.6.1 and iapkg read them whole. The gate says so, and refuses a package whose cut names
/// would land on another entry's path.
enum LibarchiveNameCheck {
    static func findings(_ toc: XarTOC, entries: [ContentEntry]) -> [Finding] {
        let wrapped = toc.files.indices.filter { toc.files[$0].libarchiveName != nil && $0 < entries.count }
        guard let first = wrapped.first else { return [] }
        var findings: [Finding] = []
        let others = wrapped.count > 1 ? " (and \(wrapped.count - 1) more long names)" : ""
        findings.append(
            Rule.xarNameWrapped.finding(
                entries[first],
                "bsdtar (libarchive 3.x) extracts this name as '\(EntryNameRules.printable(toc.files[first].libarchiveName ?? ""))'\(others): it stops a base64 name at its first line break; Apple's xar and iapkg read the whole name — keep names under 55 bytes if packages are extracted with bsdtar"
            ))
        var taken: [String: Int] = [:]
        for index in entries.indices { taken[entries[index].path] = index }
        for index in wrapped {
            var components = entries[index].components
            guard !components.isEmpty, let cut = toc.files[index].libarchiveName else { continue }
            components[components.count - 1] = cut
            let seen = components.joined(separator: "/")
            if let other = taken[seen], other != index {
                findings.append(
                    Rule.entryReaderCollision.finding(
                        entries[index],
                        "bsdtar (libarchive 3.x) extracts this entry as '\(EntryNameRules.printable(seen))', the path of '\(EntryNameRules.printable(entries[other].reportedPath))': one overwrites the other there — rename one"
                    ))
            } else {
                taken[seen] = index
            }
        }
        return findings
    }
}
