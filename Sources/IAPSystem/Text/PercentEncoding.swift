/// `%XX` escapes of URIs and URLs (RFC 3986 §2.1), decoded: one decoder for the gate's request
/// paths, the object store's keys and productbuild's `pkg-ref` locations.
package enum PercentEncoding {
    /// `bytes` with every `%XX` escape decoded (hex digits in either case). A `%` not followed by
    /// two hex digits makes the result nil, or, when `keepingMalformed` is true, stays as it is.
    package static func decode(_ bytes: some Collection<UInt8>, keepingMalformed: Bool = false) -> [UInt8]? {
        let bytes = Array(bytes)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = Hex.value(bytes[index + 1]), let low = Hex.value(bytes[index + 2])
            {
                out.append(high << 4 | low)
                index += 3
            } else if bytes[index] == UInt8(ascii: "%") && !keepingMalformed {
                return nil
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return out
    }
}
