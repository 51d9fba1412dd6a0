import IAPRules
import IAPSystem

/// Rules for the name of one path component, and for junk files build leaves out.
package enum EntryNameRules {
    /// Longest component, in UTF-8 bytes.
    package static let maxComponentBytes = PackageLimits.componentBytes
    /// Longest path, in UTF-8 bytes.
    package static let maxPathBytes = PackageLimits.pathBytes

    /// Why `name` cannot be a path component, or nil if it can.
    package static func problem(with name: String) -> String? { brokenRule(by: name)?.problem }

    /// The rule `name` breaks as a path component (`Rule.entryNameInvalid` or
    /// `Rule.entryComponentLength`) and why, or nil if it breaks none.
    package static func brokenRule(by name: String) -> (rule: Rule, problem: String)? {
        if let problem = characterProblem(with: name) { return (Rule.entryNameInvalid, problem) }
        if name.utf8.count > maxComponentBytes {
            return (
                Rule.entryComponentLength,
                "has a component of \(name.utf8.count) bytes; at most \(maxComponentBytes) are allowed"
            )
        }
        return nil
    }

    private static func characterProblem(with name: String) -> String? {
        if name.isEmpty { return "has an empty path component" }
        if name == "." || name == ".." { return "has a '\(name)' path component" }
        for scalar in name.unicodeScalars {
            switch scalar.value {
            case 0: return "contains a NUL character"
            case 0x2F: return "contains '/' inside a name"
            case 0x5C: return "contains a backslash"
            case 0x01...0x1F, 0x7F, 0x80...0x9F: return "contains the control character U+\(hex4(scalar.value))"
            case 0xFFFD: return "is not valid UTF-8"
            default: continue
            }
        }
        return nil
    }

    /// True when `name` holds a bidirectional-override or -isolate character that can disguise it.
    package static func hasBidiControl(_ name: String) -> Bool {
        name.unicodeScalars.contains {
            (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value)
                || $0.value == 0x200E || $0.value == 0x200F || $0.value == 0x061C
        }
    }

    /// Names that are never content: Finder, version-control and Windows leftovers.
    package static func isJunk(_ name: String) -> Bool {
        ["." + "DS_Store", "__MACOSX", ".svn", "CVS", ".git", "Thumbs.db"].contains(name) || name.hasPrefix("._")
    }

    /// Bundle and library suffixes that mean executable code whatever the bytes are.
    package static let codeSuffixes = [".app", ".appex", ".framework", ".bundle", ".plugin", ".kext", ".xpc", ".dylib"]

    /// The code suffix `name` ends with (any case), if any.
    package static func codeSuffix(of name: String) -> String? {
        let lower = name.lowercased()
        return codeSuffixes.first { lower.hasSuffix($0) && lower.count > $0.count }
    }

    /// True for native library names that are suspicious but not forbidden (`.so`, `.so.1`, `.a`).
    package static func isNativeLibraryName(_ name: String) -> Bool {
        let lower = name.lowercased()
        return lower.hasSuffix(".so") || lower.contains(".so.") || (lower.hasSuffix(".a") && lower.count > 2)
    }

    /// `text` safe to print on one line: control characters (C0, DEL, C1) and bidirectional
    /// controls shown as `\u{…}` escapes, so a hostile name can neither break a report's lines nor
    /// reorder what a terminal shows.
    package static func printable(_ text: String) -> String {
        let needsEscape: (Unicode.Scalar) -> Bool = { scalar in
            let value = scalar.value
            return value < 0x20 || (0x7F...0x9F).contains(value) || (0x202A...0x202E).contains(value)
                || (0x2066...0x2069).contains(value) || value == 0x200E || value == 0x200F || value == 0x061C
        }
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if needsEscape(scalar) { out += "\\u{\(hex4(scalar.value))}" } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }

    private static func hex4(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
