/// One validation rule: a stable id, a severity, a family and the words that explain it.
///
/// Every rule is a stored property of a ``RuleGroup`` in `Catalogue/` (one file a group), named
/// `Rule.xarMagic` wherever it is used; ``Rule/all`` is collected from the groups, so no list is kept
/// by hand. A ``Finding`` is made from one (`Rule.xarMagic.finding(…)`), never from a string.
/// Two rules are equal when their ids are.
@dynamicMemberLookup
public struct Rule: Hashable, Sendable, Encodable, CustomStringConvertible {
    /// Stable kebab-case id, e.g. `xar-toc-checksum-mismatch`: what reports, SARIF and `iapkg rules` name.
    public let id: String
    /// Whether breaking it fails validation (error) or is reported (warning, an error with `--strict`).
    public let severity: Severity
    /// The group it belongs to.
    public let family: RuleFamily
    /// One line: what the rule refuses or warns about.
    public let summary: String
    /// Why the rule exists and what to do when a package breaks it.
    public let explanation: String
    /// A few words the rule table (`iapkg rules --markdown`) adds after the id (Markdown, no links), or nil.
    public let tableNote: String?

    init(
        _ id: String, _ severity: Severity, _ family: RuleFamily, _ summary: String, _ explanation: String,
        tableNote: String? = nil
    ) {
        self.id = id
        self.severity = severity
        self.family = family
        self.summary = summary
        self.explanation = explanation
        self.tableNote = tableNote
    }

    private enum CodingKeys: String, CodingKey {
        case id, severity, family, summary, explanation
    }

    public var description: String { id }

    public static func == (a: Rule, b: Rule) -> Bool { a.id == b.id }

    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
