#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A JWS in compact serialization (RFC 7515 §7.1), split and decoded strictly but not yet trusted.
struct CompactJWS {
    /// The protected header's fields that matter here.
    struct Header: Decodable {
        /// The signature algorithm.
        let alg: String
        /// The certificate chain, leaf first, standard base64 DER.
        let x5c: [String]
        /// Critical header extensions; any is refused.
        let crit: [String]?
    }

    /// The decoded protected header.
    let header: Header
    /// The payload's bytes (JSON).
    let payload: [UInt8]
    /// The signature's bytes.
    let signature: [UInt8]
    /// `BASE64URL(header) "." BASE64URL(payload)`: the bytes the signature covers.
    let signingInput: [UInt8]

    /// Splits and decodes `text`, refusing anything that is not exactly three canonical parts.
    init(_ text: String, maxLength: Int, naming what: String = "signed transaction") throws(PurchaseRefusal) {
        guard text.utf8.count <= maxLength else {
            throw PurchaseRefusal(
                .jwsTooLarge, "the \(what) is \(text.utf8.count) bytes; at most \(maxLength) are accepted")
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty }) else {
            throw PurchaseRefusal(
                .jwsMalformed,
                "a \(what) is three non-empty base64url parts joined by '.' (found \(parts.count))")
        }
        guard let headerBytes = Base64URL.decode(parts[0]), let payload = Base64URL.decode(parts[1]),
            let signature = Base64URL.decode(parts[2])
        else {
            throw PurchaseRefusal(.jwsBase64, "a part of the \(what) is not canonical unpadded base64url")
        }
        guard JSONShape.isObject(headerBytes),
            let header = try? JSONDecoder().decode(Header.self, from: Data(headerBytes))
        else {
            throw PurchaseRefusal(.jwsHeader, "the header is not a JSON object with a string 'alg' and an array 'x5c'")
        }
        guard JSONShape.isObject(payload) else {
            throw PurchaseRefusal(.jwsPayload, "the payload is not a JSON object")
        }
        self.header = header
        self.payload = payload
        self.signature = signature
        self.signingInput = Array(parts[0].utf8) + [UInt8(ascii: ".")] + Array(parts[1].utf8)
    }
}

/// A cheap shape check before JSON decoding: the text is an object (after optional white space).
enum JSONShape {
    /// True when `bytes` starts with `{` after white space and ends with `}` before white space.
    static func isObject(_ bytes: [UInt8]) -> Bool {
        let space: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
        guard let first = bytes.firstIndex(where: { !space.contains($0) }),
            let last = bytes.lastIndex(where: { !space.contains($0) })
        else { return false }
        return bytes[first] == UInt8(ascii: "{") && bytes[last] == UInt8(ascii: "}")
    }
}
