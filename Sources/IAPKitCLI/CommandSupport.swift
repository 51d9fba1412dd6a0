import ArgumentParser
import FoundationEssentials
import IAPCore
import IAPKit
import IAPRules

/// Runs a command body, turning domain errors into a message on stderr and the documented exit status.
func perform(_ body: () throws -> Void) throws {
    let console = Console.current
    do {
        try body()
    } catch let error as IAPKitError {
        if case .invalid(let path, let findings) = error {
            for finding in findings { console.err(FindingText.line(finding, path: path, console: console)) }
        }
        console.err(console.styled("iapkg: error: ", "1;31") + error.description)
        throw ExitCode(error.exitStatus)
    } catch let error as SystemError {
        console.err(console.styled("iapkg: error: ", "1;31") + error.description)
        throw ExitCode(2)
    }
}

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

/// JSON as every command writes it: sorted keys, pretty, one document on stdout.
enum JSONOutput {
    static func encode<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

/// Human-readable byte counts.
enum ByteCount {
    static func text(_ bytes: UInt64) -> String {
        let units = ["bytes", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(bytes) bytes" : FixedPoint.text(value, places: 1) + " " + units[unit]
    }
}

extension String {
    /// The text cut or padded with spaces to `width` characters, for aligned columns (what
    /// Foundation's `padding(toLength:withPad:startingAt:)` does with a space).
    func paddedOrCut(to width: Int) -> String {
        let count = self.count
        return count >= width ? String(prefix(width)) : self + String(repeating: " ", count: width - count)
    }
}
