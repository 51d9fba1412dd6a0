/// How much a finding matters.
public enum Severity: String, Codable, Sendable, Comparable {
    /// Reported; fails validation only with `--strict`.
    case warning
    /// Fails validation.
    case error

    public static func < (a: Severity, b: Severity) -> Bool { a == .warning && b == .error }
}
