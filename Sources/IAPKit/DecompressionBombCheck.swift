import IAPCore

/// Refuses, before decoding, data that claims more bytes than its stored form could ever hold.
enum DecompressionBombCheck {
    /// deflate's best case is about 1032:1; allow that plus a little slack.
    static let maxRatio: UInt64 = 1032

    /// A `size-declared-bomb` finding when `declared` decoded bytes cannot come from `stored` bytes.
    /// Unpacked content beyond this is refused before decoding (we decide: eight times Apple's 2 GiB
    /// upload cap; real content compresses far less, and decoding more would take minutes).
    static let maxDeclaredTotal: UInt64 = 16 << 30

    /// A `size-declared-bomb` finding when a package declares more unpacked bytes than any real one.
    static func totalFinding(declared: UInt64, entry: String?) -> Finding? {
        guard declared > maxDeclaredTotal else { return nil }
        return .error("size-declared-bomb", entry, offset: nil,
            "the package declares \(declared) unpacked bytes, more than the \(maxDeclaredTotal) (16 GiB) any hosted content could need: refused before decoding as a decompression bomb")
    }

    static func finding(entry: String?, declared: UInt64, stored: UInt64, offset: UInt64?) -> Finding? {
        let (product, overflow) = stored.multipliedReportingOverflow(by: maxRatio)
        let possible = overflow ? UInt64.max : product &+ 4096
        guard declared > possible else { return nil }
        return .error("size-declared-bomb", entry, offset: offset,
            "the entry declares \(declared) decoded bytes from only \(stored) stored bytes, more than any compression achieves: a decompression bomb; refuse the package")
    }
}
