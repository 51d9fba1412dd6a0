/// Base64 (RFC 4648, standard alphabet, padded): plist `<data>`, xar `enctype="base64"` names.
package enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The 6-bit value of each alphabet byte, 0xFF for bytes outside the alphabet.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        return table
    }()

    /// `bytes` encoded, with padding, on one line.
    package static func encode(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let available = min(3, bytes.endIndex - index)
            let b0 = UInt32(bytes[index])
            let b1 = available > 1 ? UInt32(bytes[index + 1]) : 0
            let b2 = available > 2 ? UInt32(bytes[index + 2]) : 0
            let group = b0 << 16 | b1 << 8 | b2
            out.append(alphabet[Int(group >> 18 & 63)])
            out.append(alphabet[Int(group >> 12 & 63)])
            out.append(available > 1 ? alphabet[Int(group >> 6 & 63)] : UInt8(ascii: "="))
            out.append(available > 2 ? alphabet[Int(group & 63)] : UInt8(ascii: "="))
            index += available
        }
        return out
    }

    /// The bytes `text` encodes; XML whitespace anywhere is skipped. Nil when a character is outside the
    /// alphabet, the length is not a multiple of 4, or padding is anywhere but the end.
    package static func decode(_ text: String) -> [UInt8]? {
        var symbols: [UInt8] = []
        symbols.reserveCapacity(text.utf8.count)
        for byte in text.utf8 where ![0x20, 0x09, 0x0A, 0x0D].contains(byte) { symbols.append(byte) }
        guard symbols.count % 4 == 0 else { return nil }
        var padding = 0
        while padding < 2, padding < symbols.count, symbols[symbols.count - 1 - padding] == UInt8(ascii: "=") {
            padding += 1
        }
        var out: [UInt8] = []
        out.reserveCapacity(symbols.count / 4 * 3)
        var group: UInt32 = 0
        for (index, symbol) in symbols.enumerated() {
            let value: UInt8
            if index >= symbols.count - padding {
                value = 0
            } else {
                value = values[Int(symbol)]
                guard value != 0xFF else { return nil }
            }
            group = group << 6 | UInt32(value)
            if index % 4 == 3 {
                out.append(UInt8(group >> 16 & 0xFF))
                out.append(UInt8(group >> 8 & 0xFF))
                out.append(UInt8(group & 0xFF))
                group = 0
            }
        }
        out.removeLast(padding)
        return out
    }
}
