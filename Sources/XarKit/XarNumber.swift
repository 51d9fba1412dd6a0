/// Strict number parsing for TOC texts: digits only, no sign, no spaces, no overflow.
enum XarNumber {
    /// A plain decimal that fits in UInt64, or nil.
    static func decimal(_ text: String) -> UInt64? {
        parse(text, radix: 10)
    }

    /// Octal digits (a `<mode>`) that fit in UInt32, or nil.
    static func octal(_ text: String) -> UInt32? {
        parse(text, radix: 8).flatMap { UInt32(exactly: $0) }
    }

    private static func parse(_ text: String, radix: UInt64) -> UInt64? {
        let utf8 = text.utf8
        guard !utf8.isEmpty, utf8.count <= 64 else { return nil }
        var value: UInt64 = 0
        for byte in utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let digit = UInt64(byte - UInt8(ascii: "0"))
            guard digit < radix else { return nil }
            let (shifted, overflowA) = value.multipliedReportingOverflow(by: radix)
            let (sum, overflowB) = shifted.addingReportingOverflow(digit)
            guard !overflowA, !overflowB else { return nil }
            value = sum
        }
        return value
    }
}
