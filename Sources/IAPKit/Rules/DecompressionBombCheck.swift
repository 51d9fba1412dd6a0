import IAPRules
import IAPSystem

/// Refuses, before decoding, data that claims more bytes than its stored form could ever hold.
enum DecompressionBombCheck {
    /// deflate's best case is about 1032:1; allow that plus a little slack.
    static let maxRatio: UInt64 = 1032

    /// A `size-declared-bomb` finding when `declared` decoded bytes cannot come from `stored` bytes.
    static func finding(entry: String?, declared: UInt64, stored: UInt64, offset: UInt64?) -> Finding? {
        let (product, overflow) = stored.multipliedReportingOverflow(by: maxRatio)
        let possible = overflow ? UInt64.max : product &+ 4096
        guard declared > possible else { return nil }
        return Rule.sizeDeclaredBomb.finding(
            entry, offset: offset,
            "the entry declares \(declared) decoded bytes from only \(stored) stored bytes, more than any compression achieves: a decompression bomb; refuse the package"
        )
    }
}
