import IAPSystem

/// Time stamps as xar writes them.
enum Timestamps {
    /// `YYYY-MM-DDTHH:MM:SSZ` for `seconds` since 1970, in UTC.
    static func iso8601(_ seconds: Int64) -> String {
        let parts = WallClock.utc(seconds)
        func pad(_ v: Int, _ width: Int = 2) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        return "\(pad(parts.year, 4))-\(pad(parts.month))-\(pad(parts.day))T"
            + "\(pad(parts.hour)):\(pad(parts.minute)):\(pad(parts.second))Z"
    }

    /// Seconds since 1970, now.
    static func now() -> Int64 { WallClock.now().seconds }
}
