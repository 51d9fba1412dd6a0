internal import IAPSystem

/// Percent-encoding as SigV4 and S3 spell it: every byte but `A-Z a-z 0-9 - _ . ~` becomes `%XX`
/// (upper-case hex), the same in the canonical request and on the wire.
package enum URIEncoding {
    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// `text` encoded for a query name or value (a `/` is encoded too).
    package static func encode(_ text: String) -> String { encode(text, keepingSlash: false) }

    /// An object key or path encoded for the URI path: each byte encoded as in a query, `/` kept.
    package static func encodePath(_ text: String) -> String { encode(text, keepingSlash: true) }

    /// `text` with every `%XX` turned back into its byte; nil if a `%` is not followed by two hex digits
    /// or the bytes are not UTF-8.
    package static func decode(_ text: some StringProtocol) -> String? {
        PercentEncoding.decode(text.utf8).flatMap { String(validating: $0, as: UTF8.self) }
    }

    private static func encode(_ text: String, keepingSlash: Bool) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) || (keepingSlash && byte == UInt8(ascii: "/")) {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0xF)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
            UInt8(ascii: "~"):
            true
        default: false
        }
    }
}
