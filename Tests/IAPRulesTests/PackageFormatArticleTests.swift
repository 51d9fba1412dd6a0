import Foundation
import IAPRules
import Testing

/// The DocC article on the format (Sources/IAPKit/IAPKit.docc/PackageFormat.md) is held against the
/// catalogue, and every "PackageFormat.md §N" a comment cites is held against the article's headings.
@Suite struct PackageFormatArticleTests {
    /// The checkout's root: three folders above this file.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let idPattern = #"^[a-z]+(-[a-z0-9]+)+$"#

    /// The article's text.
    static func article() throws -> String {
        try String(
            contentsOf: root.appendingPathComponent("Sources/IAPKit/IAPKit.docc/PackageFormat.md"), encoding: .utf8)
    }

    /// The article's numbered sections ("## 6. …"): number → body up to the next "## ".
    static func sections(_ text: String) -> [Int: String] {
        var result: [Int: String] = [:]
        for part in text.components(separatedBy: "\n## ").dropFirst() {
            let number = part.prefix { $0.isNumber }
            guard let value = Int(number), part.dropFirst(number.count).hasPrefix(". ") else { continue }
            result[value] = part
        }
        return result
    }

    /// A section's subsections ("### Title"): title → body.
    static func subsections(_ section: String) -> [(title: String, body: String)] {
        section.components(separatedBy: "\n### ").dropFirst().map { part in
            let title = part.prefix { $0 != "\n" }
            return (String(title), String(part.dropFirst(title.count)))
        }
    }

    /// The backquoted strings of `text` that name rules (or look as if they did: a rule's prefix).
    static func ruleIds(in text: String) -> [String] {
        let prefixes = Set(Rule.all.map { String($0.id.prefix { $0 != "-" }) })
        return text.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
            .filter { $0.range(of: idPattern, options: .regularExpression) != nil }
            .filter { prefixes.contains(String($0.prefix { $0 != "-" })) }
    }

    @Test func sectionSixNamesEveryRuleUnderItsFamily() throws {
        let rules = try #require(Self.sections(try Self.article())[6])
        let parts = Self.subsections(rules)
        #expect(parts.count == RuleFamily.allCases.count, "\(parts.map(\.title))")
        for (part, family) in zip(parts, RuleFamily.allCases) {
            #expect(family.title.lowercased().hasPrefix(part.title.lowercased()), "§6 '\(part.title)' for \(family)")
            let named = Set(Self.ruleIds(in: part.body))
            let catalogue = Set(Rule.all.filter { $0.family == family }.map(\.id))
            #expect(
                named == catalogue,
                "\(family): missing \(catalogue.subtracting(named).sorted()), not rules \(named.subtracting(catalogue).sorted())"
            )
        }
    }

    @Test func everyIdTheArticleNamesIsARule() throws {
        let ids = Self.ruleIds(in: try Self.article())
        #expect(ids.count >= Rule.all.count)
        for id in ids { #expect(Rule.named(id) != nil, "the article names '\(id)', which the catalogue does not hold") }
    }

    /// The text files of Sources, Tests and .ci, by path relative to the root.
    static func sourceTexts() throws -> [(path: String, text: String)] {
        var result: [(String, String)] = []
        for folder in ["Sources", "Tests", ".ci"] {
            let base = root.appendingPathComponent(folder)
            let names = try #require(FileManager.default.enumerator(atPath: base.path)).compactMap { $0 as? String }
            for name in names where !name.contains("Corpus/") {
                let url = base.appendingPathComponent(name)
                guard (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true,
                    let text = try? String(contentsOf: url, encoding: .utf8)
                else { continue }
                result.append(("\(folder)/\(name)", text))
            }
        }
        return result
    }

    @Test func everySectionACommentCitesExists() throws {
        let sections = Self.sections(try Self.article())
        var cited = 0
        for (path, text) in try Self.sourceTexts() where !path.hasSuffix("PackageFormatArticleTests.swift") {
            #expect(!text.contains("FORMAT.md"), "\(path) cites a format page outside the repository")
            for line in text.split(separator: "\n") {
                guard let start = line.range(of: "PackageFormat.md §") else { continue }
                // The citation runs to the closing parenthesis: "§3, §6 \"ContentInfo.plist\"", "§5 a".
                let citation = line[start.upperBound...].prefix { $0 != ")" }
                var section: String?
                for piece in citation.split(separator: "§") {
                    let number = piece.prefix { $0.isNumber }
                    section = Int(number).flatMap { sections[$0] }
                    cited += 1
                    #expect(section != nil, "\(path): §\(number) is not a section of PackageFormat.md")
                    let titles = section.map { Self.subsections($0).map(\.title) } ?? []
                    let rest = piece.dropFirst(number.count)
                    if rest.first == " ", let letter = rest.dropFirst().first, letter.isLetter, letter.isLowercase,
                        rest.dropFirst(2).first.map({ !$0.isLetter }) ?? true
                    {
                        #expect(titles.contains { $0.hasPrefix("\(letter). ") }, "\(path): §\(number) \(letter)")
                    }
                    for (offset, quoted) in rest.split(separator: "\"", omittingEmptySubsequences: false).enumerated()
                    where offset % 2 == 1 {
                        #expect(titles.contains(String(quoted)), "\(path): §\(number) has no subsection '\(quoted)'")
                    }
                }
            }
        }
        #expect(cited >= 18)
    }
}
