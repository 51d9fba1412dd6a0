/// One validation rule: a stable id, a severity, a family and the words that explain it.
///
/// Every rule is a `static let` of `Rule` in `Catalogue/`, one file a family, and is listed in
/// ``Rule/all``; a ``Finding`` is made from one (`Rule.xarMagic.finding(…)`), never from a string.
/// Two rules are equal when their ids are.
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

    init(_ id: String, _ severity: Severity, _ family: RuleFamily, _ summary: String, _ explanation: String) {
        self.id = id
        self.severity = severity
        self.family = family
        self.summary = summary
        self.explanation = explanation
    }

    public var description: String { id }

    public static func == (a: Rule, b: Rule) -> Bool { a.id == b.id }

    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
