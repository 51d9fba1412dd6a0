#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Strict base64 and base64url (RFC 4648 §4, §5): only the alphabet, canonical trailing bits, so
/// that each byte string has exactly one spelling.
package enum Base64URL {
    /// `text` as unpadded base64url.
    package static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var text = Data(bytes).base64EncodedString()
        while text.hasSuffix("=") { text.removeLast() }
        return String(
            text.map { character -> Character in
                switch character {
                case "+": "-"
                case "/": "_"
                default: character
                }
            })
    }

    /// The bytes of unpadded base64url `text`, or nil when it is not canonical base64url.
    package static func decode(_ text: Substring) -> [UInt8]? {
        guard text.utf8.count % 4 != 1 else { return nil }
        var standard = ""
        standard.reserveCapacity(text.utf8.count + 3)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                standard.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: "-"): standard.append("+")
            case UInt8(ascii: "_"): standard.append("/")
            default: return nil
            }
        }
        while standard.utf8.count % 4 != 0 { standard.append("=") }
        guard let data = Data(base64Encoded: standard) else { return nil }
        let bytes = [UInt8](data)
        // Canonical: the bits after the last byte are zero (one spelling per byte string).
        guard encode(bytes) == text else { return nil }
        return bytes
    }

    /// The bytes of padded standard base64 `text` (as `x5c` holds DER), or nil when it is not canonical.
    package static func decodeStandard(_ text: String) -> [UInt8]? {
        guard !text.isEmpty, let data = Data(base64Encoded: text) else { return nil }
        guard data.base64EncodedString() == text else { return nil }
        return [UInt8](data)
    }
}
