import Foundation
import IAPRules
import Testing

/// `iapkg rules`: the catalogue listed and explained, as text and JSON.
@Suite(.onTestThreads) struct RulesCommandTests {
    @Test func listsEveryRuleOnALine() throws {
        let result = try Harness.run(["iapkg", "rules"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == Rule.all.count)
        for (line, rule) in zip(lines, Rule.all) {
            let words = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: true)
            #expect(
                words.map { $0.trimmingCharacters(in: .whitespaces) } == [
                    rule.id, rule.severity.rawValue, rule.family.rawValue, rule.summary,
                ])
        }
    }

    @Test func explainsOneRule() throws {
        let result = try Harness.run(["iapkg", "rules", "xar-toc-checksum-mismatch"])
        #expect(result.status == 0, "\(result.stderr)")
        let rule = Rule.xarTocChecksumMismatch
        #expect(
            result.stdout == "xar-toc-checksum-mismatch (error, container)\n\(rule.summary)\n\n\(rule.explanation)\n")
    }

    @Test func jsonCarriesEveryRuleWithItsExplanation() throws {
        let result = try Harness.run(["iapkg", "rules", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        #expect(document["schemaVersion"] as? Int == 1)
        let rules = try #require(document["rules"] as? [[String: String]])
        #expect(rules.map { $0["id"] } == Rule.all.map(\.id))
        #expect(rules.first { $0["id"] == "exec-script" }?["severity"] == "warning")
        #expect(rules.first { $0["id"] == "plist-root" }?["family"] == "content-info")
        #expect(rules.allSatisfy { !($0["explanation"] ?? "").isEmpty })
        let one = try Harness.run(["iapkg", "rules", "link-loop", "--json"])
        let single = try #require(try JSONSerialization.jsonObject(with: one.stdoutData) as? [String: Any])
        #expect((single["rules"] as? [[String: String]])?.map { $0["id"] } == ["link-loop"])
    }

    @Test func unknownIdIsAUsageErrorWithASuggestion() throws {
        let typo = try Harness.run(["iapkg", "rules", "xar-toc-chekcsum-mismatch"])
        #expect(typo.status == 64)
        #expect(typo.stdout.isEmpty)
        #expect(
            typo.stderr.contains("unknown rule 'xar-toc-chekcsum-mismatch'; did you mean 'xar-toc-checksum-mismatch'?"))
        let nonsense = try Harness.run(["iapkg", "rules", "completely-different-thing"])
        #expect(nonsense.status == 64)
        #expect(nonsense.stderr.contains("unknown rule 'completely-different-thing'"))
        #expect(!nonsense.stderr.contains("did you mean"))
    }

    @Test func jsonMatchesItsSchema() throws {
        try OutputSchemaTests.expectValid(try Harness.run(["iapkg", "rules", "--json"]), "rules.schema.json")
        try OutputSchemaTests.expectValid(
            try Harness.run(["iapkg", "rules", "exec-elf", "--json"]), "rules.schema.json")
    }
}
