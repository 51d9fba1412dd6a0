import IAPSystem
import XMLKit

/// One `<name>` element as every reader of it sees it: xar writers store a name that is not plain
/// Latin-1 as `enctype="base64"`, which libxml2 breaks with CR LF every 72 characters.
struct XarNameDecoding: Equatable {
    /// The decoded name (invalid UTF-8 becomes U+FFFD, which the name rules refuse).
    var name: String
    /// The text as stored, when it differs from `name` (an encoded name), without line breaks.
    var stored: String?
    /// What libarchive 3.x extracts, when that differs from `name`.
    var libarchive: String?
    /// Why no reader can agree on this name, when that is so (`xar-name-encoding`).
    var problem: String?

    /// Decodes `text` under the `enctype` attribute (nil when absent).
    init(text: String, enctype: String?) {
        name = text
        switch enctype {
        case nil: break
        case "base64"?:
            guard let bytes = Base64.decode(text) else {
                problem =
                    "the base64 <name> \"\(text.prefix(120))\" is not valid base64; no reader can agree on this name"
                stored = text
                return
            }
            name = String(decoding: bytes, as: UTF8.self)
            stored = String(text.unicodeScalars.filter { !" \t\r\n".unicodeScalars.contains($0) })
            let cut = Self.libarchiveReading(ofBase64: text)
            if cut != name { libarchive = cut }
        case let other?:
            problem =
                "the <name> has enctype=\"\(other.prefix(80))\"; xar defines only base64, so readers would disagree on this name"
            stored = text
        }
    }

    /// The name libarchive 3.x extracts from a base64 `<name>`: it decodes only up to the first byte
    /// outside the base64 alphabet, so a name wrapped by libxml2 (over 54 bytes) loses its tail.
    static func libarchiveReading(ofBase64 text: String) -> String {
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var prefix = Array(text.utf8.prefix { alphabet.contains($0) })
        if prefix.count % 4 == 1 { prefix.removeLast() }
        while prefix.count % 4 != 0 { prefix.append(UInt8(ascii: "=")) }
        return String(decoding: Base64.decode(String(decoding: prefix, as: UTF8.self)) ?? [], as: UTF8.self)
    }
}
