import Foundation
import IAPRules
import Testing

/// The rule table of the documentation (the Rules article) and the ids the tests expect are held
/// against the catalogue (`Rule.all`).
@Suite(.onTestThreads) struct RuleTableArticleTests {
    static let idPattern = #"^[a-z]+(-[a-z0-9]+)+$"#

    /// The backquoted rule ids of `text`, in order.
    static func ids(in text: Substring) -> [String] {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }
            .map { String($0.element) }.filter { $0.range(of: idPattern, options: .regularExpression) != nil }
    }

    /// The rule article of IAPKit's documentation, where the table is.
    static let articlePath = "Sources/IAPKit/IAPKit.docc/Rules.md"

    /// The article's table, from its header row to its last row, a newline after each.
    static func table() throws -> String {
        let article = try String(contentsOf: Harness.packageRoot.appendingPathComponent(articlePath), encoding: .utf8)
        let lines = article.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex { $0.hasPrefix("| group |") }, "\(articlePath) has no rule table")
        return lines[start...].prefix { $0.hasPrefix("|") }.map { $0 + "\n" }.joined()
    }

    /// The rows of the article's rule table: group title, error ids, warning ids.
    static func rows() throws -> [(title: String, errors: [String], warnings: [String])] {
        try table().split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| group ") }.map { line in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) }
            return (cells[0], ids(in: Substring(cells[1])), ids(in: Substring(cells.count > 2 ? cells[2] : "")))
        }
    }

    @Test func tableListsEveryRuleOnceUnderItsFamilyAndSeverity() throws {
        let rows = try Self.rows()
        #expect(rows.map(\.title) == RuleFamily.allCases.map(\.title))
        for (row, family) in zip(rows, RuleFamily.allCases) {
            let rules = Rule.all.filter { $0.family == family }
            #expect(row.errors == rules.filter { $0.severity == .error }.map(\.id), "\(family) errors")
            #expect(row.warnings == rules.filter { $0.severity == .warning }.map(\.id), "\(family) warnings")
        }
        #expect(rows.flatMap { $0.errors + $0.warnings }.count == Rule.all.count)
    }

    /// The table's notes point nowhere: a link would depend on where a document keeps its headings.
    @Test func tableNotesCarryNoLinks() {
        let linked = Rule.all.filter { ($0.tableNote ?? "").contains("](") }.map(\.id)
        #expect(linked.isEmpty, "table notes with a link: \(linked)")
        #expect(Rule.all.contains { $0.tableNote != nil })
    }

    /// The table is generated: the article holds exactly what `iapkg rules --markdown` writes.
    @Test func tableIsWhatRulesMarkdownWrites() throws {
        let generated = try Harness.run(["iapkg", "rules", "--markdown"])
        #expect(generated.status == 0)
        #expect(
            try Self.table() == generated.stdout,
            "\(Self.articlePath)'s rule table is out of date: replace it with the output of 'iapkg rules --markdown'")
    }

    /// Strings in the tests that look like rule ids but are not: fixture names, and the mistyped ids
    /// the tests of `iapkg rules` and of the catalogue use on purpose.
    static let notRuleIds: Set<String> = [
        "link-data", "link-ok", "plist-bad", "plist-shared", "xar-signature", "xar-magik", "xar-toc-chekcsum-mismatch",
    ]

    @Test func everyRuleIdTheTestsExpectIsInTheCatalogue() throws {
        let prefixes = Set(Rule.all.map { String($0.id.prefix { $0 != "-" }) })
        let tests = Harness.packageRoot.appendingPathComponent("Tests")
        let files = try #require(FileManager.default.enumerator(atPath: tests.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        var seen = 0
        for file in files {
            let text = try String(contentsOf: tests.appendingPathComponent(file), encoding: .utf8)
            for literal in text.split(separator: "\"").enumerated().filter({ $0.offset % 2 == 1 }).map(\.element) {
                let id = String(literal)
                guard id.range(of: Self.idPattern, options: .regularExpression) != nil,
                    prefixes.contains(String(id.prefix { $0 != "-" })), !Self.notRuleIds.contains(id)
                else { continue }
                seen += 1
                #expect(Rule.named(id) != nil, "\(file) expects rule '\(id)', which the catalogue does not hold")
            }
        }
        #expect(seen > 100)
    }
}
