import Foundation
import Testing

/// `--help` is written as paragraphs that argument-parser wraps to the terminal: no line past the
/// width at 80 columns, and at 200 columns a paragraph is not broken where the source broke it.
@Suite(.onTestThreads) struct HelpTextTests {
    static let commands = [
        [], ["init"], ["build"], ["bump"], ["inspect"], ["validate"], ["unpack"], ["list"], ["activate"], ["serve"],
        ["diff"], ["rules"], ["export-asset-pack"],
    ]

    func help(_ command: [String], columns: Int) throws -> [Substring] {
        let result = try Harness.run(["iapkg"] + command + ["--help"], environment: ["COLUMNS": String(columns)])
        #expect(result.status == 0, "\(command): \(result.stderr)")
        return result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    }

    @Test(arguments: commands)
    func fitsEightyColumns(command: [String]) throws {
        // The usage synopsis is one line by argument-parser's design; everything else wraps.
        let long = try help(command, columns: 80).filter { $0.count > 80 && !$0.hasPrefix("USAGE:") }
        #expect(long.isEmpty, "\(command): \(long)")
    }

    @Test func wideTerminalsGetWholeParagraphs() throws {
        let lines = try help(["validate"], columns: 200)
        let first = lines.first { $0.hasPrefix("Each path is a .pkg") } ?? ""
        // The source breaks this paragraph after "every"; the help must not.
        #expect(first.contains("Every rule is checked and every finding reported"), "\(first)")
        #expect(first.count > 100 && first.count <= 200, "\(first.count): \(first)")
    }
}
