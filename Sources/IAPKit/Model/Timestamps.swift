#if canImport(Glibc)
    import Glibc
#endif

/// Time stamps as xar writes them.
enum Timestamps {
    /// `YYYY-MM-DDTHH:MM:SSZ` for `seconds` since 1970, in UTC.
    static func iso8601(_ seconds: Int64) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func pad(_ v: Int32, _ width: Int = 2) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1))-\(pad(parts.tm_mday))T"
            + "\(pad(parts.tm_hour)):\(pad(parts.tm_min)):\(pad(parts.tm_sec))Z"
    }

    /// Seconds since 1970, now.
    static func now() -> Int64 { Int64(time(nil)) }
}
