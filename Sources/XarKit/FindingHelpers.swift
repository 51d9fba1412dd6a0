import IAPCore

extension Finding {
    /// An error finding under a xar rule id.
    static func xarError(_ rule: String, entry: String? = nil, offset: UInt64? = nil, _ message: String) -> Finding {
        Finding(rule: rule, severity: .error, entry: entry, offset: offset, message: message)
    }

    /// A warning finding under a xar rule id.
    static func xarWarning(_ rule: String, entry: String? = nil, offset: UInt64? = nil, _ message: String) -> Finding {
        Finding(rule: rule, severity: .warning, entry: entry, offset: offset, message: message)
    }
}
