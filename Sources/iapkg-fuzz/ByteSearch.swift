/// Plain byte-string search and decimal helpers over `[UInt8]`, for editing XML text and cpio headers.
enum ByteSearch {
    /// The first index at or after `start` where `needle` occurs in `haystack`, before `end`.
    static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int = 0, before end: Int? = nil) -> Int? {
        let limit = min(end ?? haystack.count, haystack.count)
        guard !needle.isEmpty, start >= 0, limit - needle.count >= start else { return nil }
        let first = needle[0]
        var index = start
        while index <= limit - needle.count {
            if haystack[index] == first {
                var matched = true
                for offset in 1..<needle.count where haystack[index + offset] != needle[offset] {
                    matched = false
                    break
                }
                if matched { return index }
            }
            index += 1
        }
        return nil
    }

    /// The decimal number spelled by `bytes[range]`, if it is only digits and fits in 64 bits.
    static func decimal(_ bytes: [UInt8], _ range: Range<Int>) -> UInt64? {
        guard !range.isEmpty, range.count <= 20, range.lowerBound >= 0, range.upperBound <= bytes.count else {
            return nil
        }
        var value: UInt64 = 0
        for byte in bytes[range] {
            guard (0x30...0x39).contains(byte) else { return nil }
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times.addingReportingOverflow(UInt64(byte - 0x30))
            guard !o1, !o2 else { return nil }
            value = sum
        }
        return value
    }

    /// The octal number spelled by `bytes[range]`, if it is only octal digits and fits in 64 bits.
    static func octal(_ bytes: [UInt8], _ range: Range<Int>) -> UInt64? {
        guard !range.isEmpty, range.count <= 21, range.lowerBound >= 0, range.upperBound <= bytes.count else {
            return nil
        }
        var value: UInt64 = 0
        for byte in bytes[range] {
            guard (0x30...0x37).contains(byte) else { return nil }
            value = value << 3 | UInt64(byte - 0x30)
        }
        return value
    }

    /// `value` in octal, zero-padded to `width` digits (longer if it does not fit).
    static func octalText(_ value: UInt64, width: Int) -> [UInt8] {
        let digits = Array(String(value, radix: 8).utf8)
        return Array(repeating: 0x30, count: max(0, width - digits.count)) + digits
    }

    /// Lower-case hexadecimal of `bytes`.
    static func hex(_ bytes: [UInt8]) -> [UInt8] {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0xF)])
        }
        return out
    }
}
