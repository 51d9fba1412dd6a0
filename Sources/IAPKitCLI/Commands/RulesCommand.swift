import ArgumentParser
import IAPRules

/// `iapkg rules`: the rule catalogue, as linters list and explain their rules.
struct RulesCommand: IAPSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "List every validation rule, or explain one.",
        discussion: """
            Without an ID, one line a rule: its id, severity (an error fails validation; a warning fails it \
            only with --strict), family and a one-line summary. With an ID, the rule's summary, why it exists \
            and what to do when a package breaks it. Every finding of 'iapkg validate' names one of these ids.

            --markdown writes the rule table of the documentation (the article "The rules"): a row per \
            family, its errors and its warnings.

            Examples:
              iapkg rules
              iapkg rules link-escape
              iapkg rules --json
              iapkg rules --markdown
            """)

    @Argument(help: "The id of the rule to explain, e.g. xar-toc-checksum-mismatch.")
    var id: String?

    @OptionGroup var outputOptions: OutputOptions

    @Flag(help: "Write the rule table the documentation shows, in Markdown.")
    var markdown = false

    func validate() throws {
        if let id, Rule.named(id) == nil {
            var message = "unknown rule '\(id)'"
            if let near = RuleSuggestion.nearest(to: id) { message += "; did you mean '\(near.id)'?" }
            throw ValidationError(message + " ('iapkg rules' lists every rule)")
        }
        if markdown && (outputOptions.json || id != nil) {
            throw ValidationError("--markdown writes the whole table: give it alone, without an id or --json")
        }
    }

    var consoleOptions: OutputOptions? { outputOptions }

    func execute() throws -> ExitStatus {
        let rules = id.flatMap(Rule.named).map { [$0] } ?? Rule.all
        let console = Console.current
        if outputOptions.json {
            console.out(try JSONOutput.encode(RulesDocument(rules: rules)))
            return .success
        }
        if markdown {
            console.out(String(RuleTable.markdown(rules).dropLast()))
            return .success
        }
        if let rule = rules.first, id != nil {
            console.out("\(rule.id) (\(rule.severity.rawValue), \(rule.family.rawValue))")
            console.out(rule.summary)
            console.out("")
            console.out(rule.explanation)
            return .success
        }
        let width = rules.map(\.id.count).max() ?? 0
        let familyWidth = RuleFamily.allCases.map(\.rawValue.count).max() ?? 0
        for rule in rules {
            let columns = [
                Self.pad(rule.id, width), Self.pad(rule.severity.rawValue, 7),
                Self.pad(rule.family.rawValue, familyWidth),
            ]
            console.out((columns + [rule.summary]).joined(separator: "  "))
        }
        return .success
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }
}

/// `iapkg rules --json`: the rules asked for (all, or the one named), each with its explanation.
struct RulesDocument: Encodable {
    let schemaVersion = 1
    let rules: [Rule]
}
