import IAPRules

extension XarError {
    /// The finding this error is, at the boundary where a xar error becomes part of a report: its
    /// rule, or `fallbackRule` for an input/output failure that breaks none (``Rule/xarData`` unless
    /// the caller knows better); its entry, or `fallbackEntry`; its offset; message and advice.
    package func finding(entry fallbackEntry: String? = nil, rule fallbackRule: Rule = Rule.xarData) -> Finding {
        Finding(
            rule: rule ?? fallbackRule, entry: entry ?? fallbackEntry, offset: offset, message: "\(message); \(advice)")
    }
}
