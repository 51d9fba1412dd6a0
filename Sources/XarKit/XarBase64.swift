/// Strict standard base64 (RFC 4648 §4) as xar writes certificates: whitespace (spaces, tabs,
/// CR, LF) between characters is skipped, anything else outside the alphabet is refused.
enum XarBase64 {
    /// The decoded bytes, or nil when the text is not base64.
    static func decode(_ text: String) -> [UInt8]? {
        var values: [UInt8] = []
        values.reserveCapacity(text.utf8.count)
        var padding = 0
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"): continue
            case UInt8(ascii: "="): padding += 1; continue
            default: break
            }
            guard padding == 0, let value = sextet(byte) else { return nil }
            values.append(value)
        }
        guard padding <= 2, (values.count + padding) % 4 == 0, values.count % 4 != 1 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(values.count * 3 / 4)
        var index = 0
        while index < values.count {
            let chunk = values[index..<min(index + 4, values.count)]
            let a = chunk[chunk.startIndex], b = chunk[chunk.startIndex + 1]
            out.append(a << 2 | b >> 4)
            if chunk.count > 2 { out.append(b << 4 | chunk[chunk.startIndex + 2] >> 2) }
            if chunk.count > 3 { out.append(chunk[chunk.startIndex + 2] << 6 | chunk[chunk.startIndex + 3]) }
            index += 4
        }
        return out
    }

    private static func sextet(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }
}
