/// The rule table (`iapkg rules --markdown`, shown in the Rules article of IAPKit's documentation),
/// made from the catalogue: a row per family, its errors and its warnings,
/// each id in backquotes with its table note after it.
public enum RuleTable {
    /// The table in Markdown, header included, a newline after each row.
    public static func markdown(_ rules: [Rule] = Rule.all) -> String {
        var rows = [["group", "errors", "warnings"]]
        for family in RuleFamily.allCases {
            let members = rules.filter { $0.family == family }
            guard !members.isEmpty else { continue }
            func cell(_ severity: Severity) -> String {
                members.filter { $0.severity == severity }.map(item).joined(separator: ", ")
            }
            rows.append([family.title, cell(.error), cell(.warning)])
        }
        let lines = rows.map { row in "|" + row.map { $0.isEmpty ? " " : " \($0) " }.joined(separator: "|") + "|" }
        return ([lines[0], "|---|---|---|"] + lines.dropFirst()).map { $0 + "\n" }.joined()
    }

    private static func item(_ rule: Rule) -> String {
        "`\(rule.id)`" + (rule.tableNote.map { " (\($0))" } ?? "")
    }
}
