/// How much a finding matters.
public enum Severity: String, Codable, Sendable, Comparable {
    case warning
    case error

    public static func < (a: Severity, b: Severity) -> Bool { a == .warning && b == .error }
}

/// One problem found in a package or a content folder, under a stable rule id.
public struct Finding: Codable, Equatable, Sendable {
    /// Stable kebab-case rule id, e.g. `xar-toc-checksum-mismatch`.
    public var rule: String
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

    public init(rule: String, severity: Severity, entry: String? = nil, offset: UInt64? = nil, message: String) {
        self.rule = rule
        self.severity = severity
        self.entry = entry
        self.offset = offset
        self.message = message
    }

    /// An error finding.
    public static func error(_ rule: String, _ entry: String? = nil, offset: UInt64? = nil, _ message: String)
        -> Finding
    {
        Finding(rule: rule, severity: .error, entry: entry, offset: offset, message: message)
    }

    /// A warning finding.
    public static func warning(_ rule: String, _ entry: String? = nil, offset: UInt64? = nil, _ message: String)
        -> Finding
    {
        Finding(rule: rule, severity: .warning, entry: entry, offset: offset, message: message)
    }
}
