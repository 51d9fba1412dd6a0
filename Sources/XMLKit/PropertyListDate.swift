/// Property-list dates: Apple's XML text form `YYYY-MM-DDTHH:MM:SSZ` and the binary form, seconds
/// since 2001-01-01T00:00:00Z as a double.
enum PropertyListDate {
    /// Days from 1970-01-01 to 2001-01-01, the binary plist epoch.
    private static let epochDaysFrom1970: Int64 = 11_323
    private static let secondsPerDay: Int64 = 86_400

    /// Whether `text` is a date in the exact form `YYYY-MM-DDTHH:MM:SSZ`, year 0001 to 9999, every field in range.
    static func isValid(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            bytes[19] == UInt8(ascii: "Z"),
            let year = number(bytes, 0, 4), let month = number(bytes, 5, 2), let day = number(bytes, 8, 2),
            let hour = number(bytes, 11, 2), let minute = number(bytes, 14, 2), let second = number(bytes, 17, 2)
        else { return false }
        return (1...9999).contains(year) && (1...12).contains(month)
            && (1...daysIn(month: month, year: year)).contains(day)
            && hour <= 23 && minute <= 59 && second <= 59
    }

    /// The text form of a binary date (`seconds` since 2001-01-01T00:00:00Z); fractions of a second are
    /// dropped (rounded down), as XML dates carry whole seconds. Nil when not finite or outside years 1...9999.
    static func text(secondsSince2001 seconds: Double) -> String? {
        // Years 1...9999 lie well within ±4e11 seconds of 2001.
        guard seconds.isFinite, seconds.magnitude < 4e11 else { return nil }
        let whole = Int64(seconds.rounded(.down))
        let sinceUnixEpoch = whole + epochDaysFrom1970 * secondsPerDay
        let days = floorDivide(sinceUnixEpoch, secondsPerDay)
        let secondOfDay = sinceUnixEpoch - days * secondsPerDay
        let (year, month, day) = civil(fromDaysSince1970: days)
        guard (1...9999).contains(year) else { return nil }
        return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T"
            + pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay % 3600 / 60, 2) + ":" + pad(secondOfDay % 60, 2) + "Z"
    }

    /// Year, month, day of the proleptic Gregorian calendar for a day count from 1970-01-01.
    private static func civil(fromDaysSince1970 days: Int64) -> (Int64, Int64, Int64) {
        let shifted = days + 719_468
        let era = floorDivide(shifted, 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let quotient = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? quotient - 1 : quotient
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func number(_ bytes: [UInt8], _ start: Int, _ count: Int) -> Int? {
        var value = 0
        for byte in bytes[start..<start + count] {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
