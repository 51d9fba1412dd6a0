/// Escaping for XML that we write ourselves.
package enum XMLEscaping {
    /// `text` escaped for element content or a double-quoted attribute value; characters XML 1.0
    /// cannot hold become U+FFFD.
    package static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for ch in text.unicodeScalars {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(ch)
            case _ where ch.value < 0x20 || ch.value == 0xFFFE || ch.value == 0xFFFF:
                out += "\u{FFFD}"  // not representable in XML 1.0
            default: out.unicodeScalars.append(ch)
            }
        }
        return out
    }
}
