/// Text escaping for plist XML as Apple and Python's plistlib write it: `&`, `<`, `>` only.
enum PropertyListEscaping {
    /// `text` escaped for element content: `&amp;`, `&lt;`, `&gt;`, and a carriage return as `&#13;` so it
    /// survives XML line-end normalisation. Throws for characters XML 1.0 cannot carry at all.
    static func escape(_ text: String) throws(PropertyListError) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\r": out += "&#13;"
            case "\t", "\n": out.unicodeScalars.append(scalar)
            default:
                guard scalar.value >= 0x20, scalar.value != 0xFFFE, scalar.value != 0xFFFF else {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                    throw PropertyListError(
                        .invalidValue,
                        "character \(code) cannot be written in an XML property list; remove it from the text")
                }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
