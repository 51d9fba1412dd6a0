import IAPRules
import IAPSystem

extension Array where Element == Finding {
    /// The findings of `more` that repeat none of these: where the xar open already reported a
    /// rule for an entry (data outside the file, an unknown encoding, a missing or unusable
    /// checksum), the entry's data stream refuses to start with that same rule and entry.
    func unreported(_ more: [Finding]) -> [Finding] {
        let reported = Set(compactMap { finding in finding.entry.map { RuleAtEntry(rule: finding.rule, entry: $0) } })
        return more.filter { finding in
            !(finding.entry.map { reported.contains(RuleAtEntry(rule: finding.rule, entry: $0)) } ?? false)
        }
    }
}

/// A rule id and the entry it was reported for: the identity of one fault.
private struct RuleAtEntry: Hashable {
    let rule: String
    let entry: String
}
