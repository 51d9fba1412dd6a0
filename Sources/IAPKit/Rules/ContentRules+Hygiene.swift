import IAPRules
import IAPSystem

/// Clutter and size (`hygiene-*`, `size-unpacked-limit`).
extension ContentRules {
    static func checkHygiene(_ entries: EntryList, maxUnpackedBytes: UInt64, _ findings: inout FindingLog) {
        var reported: Set<String> = []
        var total: UInt64 = 0
        var contentsHasChildren = false
        // Unpack writes every hard link as a copy: count the bytes each copy takes.
        var linkedSizes: [String: UInt64] = [:]
        if entries.contains(where: { $0.kind == .hardlink }) {
            for entry in entries where entry.kind == .file { linkedSizes[entry.path] = entry.size }
        }
        for entry in entries where !entry.components.isEmpty {
            var size: UInt64 = 0
            if entry.kind == .file { size = entry.size }
            if entry.kind == .hardlink {
                size = max(
                    entry.size,
                    linkedSizes[entry.hardlinkTarget.map(ContentEntry.components(of:))?.joined(separator: "/") ?? ""]
                        ?? 0)
            }
            let (sum, overflow) = total.addingReportingOverflow(size)
            total = overflow ? .max : sum
            if entry.components.count > 1, entry.components[0] == "Contents" { contentsHasChildren = true }
            guard let index = entry.components.firstIndex(where: EntryNameRules.isJunk) else { continue }
            let junk = entry.components[0...index].joined(separator: "/")
            if reported.insert(junk).inserted {
                findings.report(
                    Rule.hygieneJunkFile.finding(
                        junk, offset: entry.offset,
                        "'\(entry.components[index])' is operating-system or version-control clutter; iapkg build leaves it out"
                    ))
            }
        }
        let hasContents = entries.contains { $0.components.first == "Contents" }
        if hasContents && !contentsHasChildren {
            findings.report(
                Rule.hygieneEmptyContents.finding(
                    "Contents", offset: nil,
                    "Contents/ is empty: the app would download nothing but ContentInfo.plist"))
        }
        if let finding = UnpackedSizeLimit.finding(total: total, limit: maxUnpackedBytes, declared: false) {
            findings.report(finding)
        }
    }
}
