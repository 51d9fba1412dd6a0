import IAPKit
import IAPRules

/// One finding as a line of text: `<path>: error[<rule>] <entry> (stored as <stored>) (byte N): <message>`,
/// with control and bidirectional characters escaped so a hostile name cannot forge or hide a line.
enum FindingText {
    static func line(_ finding: Finding, path: String, console: Console, on stream: Console.Stream = .err) -> String {
        let severity =
            finding.severity == .error
            ? console.styled("error", "31", on: stream) : console.styled("warning", "33", on: stream)
        return "\(EntryNameRules.printable(path)): \(severity)" + body(finding)
    }

    /// `[<rule>] <entry> (stored as …) (byte N): <message>`, escaped, without colour.
    static func body(_ finding: Finding) -> String {
        var text = "[\(finding.rule)]"
        if let entry = finding.entry { text += " " + entryText(finding, entry) }
        if let offset = finding.offset { text += " (byte \(offset))" }
        return text + ": " + EntryNameRules.printable(finding.message)
    }

    /// `<entry> (stored as …): <message>`, escaped: an annotation's text.
    static func entryAndMessage(_ finding: Finding) -> String {
        (finding.entry.map { entryText(finding, $0) + ": " } ?? "") + EntryNameRules.printable(finding.message)
    }

    private static func entryText(_ finding: Finding, _ entry: String) -> String {
        EntryNameRules.printable(entry)
            + (finding.storedEntry.map { " (stored as \(EntryNameRules.printable($0)))" } ?? "")
    }
}
