internal import IAPSystem

/// An ISO 8601 UTC time as S3 (`Initiated`, `LastModified`) and credential processes
/// (`Expiration`) write it.
enum UTCTimestamp {
    /// Seconds since 1970 of `2026-11-28T13:00:00Z` (fractions of a second, `+00:00` and a
    /// space instead of `T` taken too); nil for anything else.
    static func seconds(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20 else { return nil }
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[from..<from + count] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard let year = number(0, 4), bytes[4] == 45, let month = number(5, 2), bytes[7] == 45,
            let day = number(8, 2), bytes[10] == 84 || bytes[10] == 116 || bytes[10] == 32,
            let hour = number(11, 2), bytes[13] == 58, let minute = number(14, 2), bytes[16] == 58,
            let second = number(17, 2), (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60,
            second < 61
        else { return nil }
        var rest = bytes[19...]
        if rest.first == 46 { rest = rest.dropFirst().drop { (48...57).contains($0) } }
        guard Array(rest) == Array("Z".utf8) || Array(rest) == Array("z".utf8) || Array(rest) == Array("+00:00".utf8)
        else { return nil }
        return WallClock.seconds(
            of: CalendarTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second))
    }
}
