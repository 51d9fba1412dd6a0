import IAPDelivery
import IAPSystem

/// The product a request for a file names, read from the URI nginx received (`X-Original-URI:
/// $request_uri`) the way nginx itself resolves it: the query string dropped, percent escapes
/// decoded, and then only a plain path accepted — no `.` or `..` segment, no empty segment, no NUL
/// or backslash — so that the product checked is the folder nginx serves (a raw
/// `/A/../B/…` names A but nginx serves B: refused).
enum OriginalURI {
    /// Why a URI names no product.
    struct Problem: Error, Equatable {
        /// What was wrong.
        let message: String
    }

    /// The longest URI accepted.
    static let maxLength = 4096

    /// The product named by `uri` under `prefix` (which starts and ends with `/`).
    static func product(of uri: String, prefix: String) throws(Problem) -> String {
        try segments(of: uri, prefix: prefix)[0]
    }

    /// The product and the file `uri` names under `prefix` for `GET /v1/content/`: as strict as
    /// `product(of:prefix:)`, and further a file (no trailing `/`) none of whose names starts with
    /// `.` — the store's own keys (`.iapkg/…`) are never handed out.
    static func content(of uri: String, prefix: String) throws(Problem) -> (product: String, path: String) {
        let names = try segments(of: uri, prefix: prefix)
        guard let last = names.last, !last.isEmpty else { throw Problem(message: "the URI names a folder, not a file") }
        guard !names.contains(where: { $0.hasPrefix(".") }) else {
            throw Problem(message: "the URI names a hidden path (a name starting with '.'): never served")
        }
        return (names[0], names.dropFirst().joined(separator: "/"))
    }

    /// The decoded names of `uri`'s path under `prefix`, the first a valid product identifier and at
    /// least one more (the last empty for a folder URL).
    private static func segments(of uri: String, prefix: String) throws(Problem) -> [String] {
        guard uri.utf8.count <= maxLength else { throw Problem(message: "the URI is over \(maxLength) bytes") }
        let path = uri.utf8.split(separator: UInt8(ascii: "?"), maxSplits: 1, omittingEmptySubsequences: false)[0]
        guard let decoded = PercentEncoding.decode(path) else {
            throw Problem(message: "the URI's path has a malformed percent escape")
        }
        guard !decoded.contains(0), !decoded.contains(UInt8(ascii: "\\")),
            let text = String(validating: decoded, as: UTF8.self)
        else {
            throw Problem(message: "the URI's path holds NUL, a backslash or invalid UTF-8")
        }
        guard text.hasPrefix(prefix) else { throw Problem(message: "the URI is not under \(prefix)") }
        let segments = text.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false)
        for (index, segment) in segments.enumerated() {
            if segment == "." || segment == ".." {
                throw Problem(message: "the URI's path has a '.' or '..' segment")
            }
            // An empty segment only at the very end (a folder URL), never inside (`//`).
            if segment.isEmpty && index != segments.count - 1 {
                throw Problem(message: "the URI's path has an empty segment")
            }
        }
        guard let first = segments.first, segments.count >= 2, ProductIdentifier.isValid(String(first)) else {
            throw Problem(message: "the URI names no product folder (\(prefix)<product id>/…)")
        }
        return segments.map(String.init)
    }

    /// True when the query string of `uri` carries a parameter named `token` or `access_token`.
    static func hasQueryToken(_ uri: String) -> Bool {
        guard let query = uri.split(separator: "?", maxSplits: 1).dropFirst().first else { return false }
        return query.split(separator: "&").contains { parameter in
            let name = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0]
            return name.lowercased() == "token" || name.lowercased() == "access_token"
        }
    }
}
