#if canImport(Glibc)
    import Glibc
#endif

/// The time of day (`CLOCK_REALTIME`), which can jump; for stamps, not for measuring.
public enum WallClock {
    /// Now, in whole seconds since 1970 and the nanoseconds past them.
    public static func now() -> (seconds: Int64, nanoseconds: Int64) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return (Int64(now.tv_sec), Int64(now.tv_nsec))
    }

    /// The UTC calendar date and time of `seconds` since 1970.
    public static func utc(_ seconds: Int64) -> CalendarTime {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        return CalendarTime(
            year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday),
            hour: Int(parts.tm_hour), minute: Int(parts.tm_min), second: Int(parts.tm_sec))
    }
}

/// A date and time of day, in UTC.
public struct CalendarTime: Equatable, Sendable {
    public var year: Int
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int
}

/// A clock that only moves forward (`CLOCK_MONOTONIC`), for measuring durations.
public enum MonotonicClock {
    /// Seconds since some fixed moment in the past.
    public static func seconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
