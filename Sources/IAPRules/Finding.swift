/// One problem found in a package or a content folder, under a rule of the catalogue.
public struct Finding: Codable, Equatable, Sendable {
    /// The id of the ``Rule`` it breaks, e.g. `xar-toc-checksum-mismatch` (the id, so reports stay plain text).
    public private(set) var rule: String
    /// The rule's severity, raised to an error by `--strict`.
    public var severity: Severity
    /// The entry it concerns, if any: content entries relative to the content root (`Contents/a.png`)
    /// with names decoded, container entries (`Distribution`, `NAME.pkg/Bom`) as the package names them.
    public var entry: String?
    /// The entry as the package stores it, only where that differs from ``entry`` (an encoded name).
    public var storedEntry: String?
    /// Byte offset in the package file where it matters, if any.
    public var offset: UInt64?
    /// What is wrong and what to do about it.
    public var message: String

    /// A finding under `rule`, at the rule's severity.
    public init(rule: Rule, entry: String? = nil, offset: UInt64? = nil, message: String) {
        self.rule = rule.id
        self.severity = rule.severity
        self.entry = entry
        self.offset = offset
        self.message = message
    }
}

extension Rule {
    /// A finding under this rule: `Rule.xarMagic.finding(nil, offset: 0, "…")`.
    public func finding(_ entry: String?, offset: UInt64? = nil, _ message: String) -> Finding {
        Finding(rule: self, entry: entry, offset: offset, message: message)
    }
}
