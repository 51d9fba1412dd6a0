import Foundation
import IAPRules
import Testing

/// The catalogue is the one list of rules: unique ids, each findable by id, grouped by family, each
/// with a summary and an explanation.
@Suite struct RuleCatalogueTests {
    @Test func idsAreUniqueKebabCase() {
        let ids = Rule.all.map(\.id)
        #expect(
            Set(ids).count == ids.count,
            "an id is listed twice: \(ids.filter { id in ids.filter { $0 == id }.count > 1 })")
        for id in ids {
            #expect(id.range(of: #"^[a-z]+(-[a-z0-9]+)+$"#, options: .regularExpression) != nil, "\(id)")
        }
        #expect(ids.count >= 96)
    }

    @Test func everyRuleIsFoundByItsId() {
        for rule in Rule.all { #expect(Rule.named(rule.id) == rule) }
        #expect(Rule.named("xar-magik") == nil)
        #expect(Rule.named("") == nil)
    }

    @Test func familiesComeInReadmeOrderEachInOneRun() {
        var seen: [RuleFamily] = []
        for rule in Rule.all where seen.last != rule.family {
            #expect(!seen.contains(rule.family), "\(rule.id) starts a second run of \(rule.family)")
            seen.append(rule.family)
        }
        #expect(seen == RuleFamily.allCases)
    }

    @Test func everyRuleIsExplained() {
        for rule in Rule.all {
            #expect(rule.summary.hasSuffix(".") && !rule.summary.contains("\n"), "\(rule.id): \(rule.summary)")
            #expect(rule.explanation.count > rule.summary.count, "\(rule.id) explains no more than its summary")
            #expect(rule.explanation.hasSuffix("."), "\(rule.id)")
        }
    }

    @Test func aFindingCarriesItsRulesIdAndSeverity() {
        let finding = Rule.linkDangling.finding("Contents/a", offset: 7, "the target is missing")
        #expect(finding.rule == "link-dangling")
        #expect(finding.severity == .warning)
        #expect(finding.entry == "Contents/a" && finding.offset == 7)
        #expect(Rule.xarMagic.finding(nil, "x").severity == .error)
    }
}
