/// Writes property lists as XML in Apple's layout, byte for byte what Python's `plistlib.dumps`
/// (and Apple's tools) produce: the XML declaration, the PUBLIC DOCTYPE, `<plist version="1.0">`, tab
/// indentation, `<dict/>`/`<array/>` when empty, only `&`, `<` and `>` escaped.
///
/// `<data>` is base64 on its own lines at the element's indentation, lines of
/// `(max(16, 76 - 8 * level) / 4) * 4` characters, as plistlib wraps it. Reals use Swift's shortest
/// round-trip text (`nan`, `inf`, `-inf` for the non-finite ones). A carriage return in text is written
/// `&#13;` so it survives XML line-end normalisation.
package enum PropertyListWriter {
    private static let header = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """

    /// The XML plist for `value`; throws for text XML cannot carry (control characters) or a malformed date.
    package static func xml(_ value: PropertyListValue) throws(PropertyListError) -> [UInt8] {
        var out = Array(header.utf8)
        try write(value, level: 0, into: &out)
        out.append(contentsOf: "</plist>\n".utf8)
        return out
    }

    private static func write(_ value: PropertyListValue, level: Int, into out: inout [UInt8]) throws(PropertyListError)
    {
        let indent = [UInt8](repeating: 0x09, count: level)
        func line(_ text: String) {
            out.append(contentsOf: indent)
            out.append(contentsOf: text.utf8)
            out.append(0x0A)
        }
        switch value {
        case .string(let text):
            line("<string>" + (try PropertyListEscaping.escape(text)) + "</string>")
        case .integer(let number):
            line("<integer>\(number)</integer>")
        case .real(let number):
            line("<real>" + PropertyListNumbers.text(number) + "</real>")
        case .bool(let flag):
            line(flag ? "<true/>" : "<false/>")
        case .date(let text):
            guard PropertyListDate.isValid(text) else {
                throw PropertyListError(
                    .invalidValue, "date '\(text.prefix(40))' is not of the form YYYY-MM-DDTHH:MM:SSZ")
            }
            line("<date>" + text + "</date>")
        case .data(let bytes):
            line("<data>")
            let lineBytes = max(16, 76 - 8 * level) / 4 * 3
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + lineBytes)
                out.append(contentsOf: indent)
                out.append(contentsOf: Base64.encode(bytes[start..<end]))
                out.append(0x0A)
                start = end
            }
            line("</data>")
        case .array(let items):
            guard !items.isEmpty else { return line("<array/>") }
            line("<array>")
            for item in items { try write(item, level: level + 1, into: &out) }
            line("</array>")
        case .dictionary(let entries):
            guard !entries.isEmpty else { return line("<dict/>") }
            line("<dict>")
            let inner = indent + [0x09]
            for entry in entries {
                out.append(contentsOf: inner)
                out.append(contentsOf: ("<key>" + (try PropertyListEscaping.escape(entry.key)) + "</key>\n").utf8)
                try write(entry.value, level: level + 1, into: &out)
            }
            line("</dict>")
        }
    }
}
