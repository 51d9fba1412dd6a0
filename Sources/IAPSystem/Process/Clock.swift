#if canImport(Glibc)
    import Glibc
#endif

/// The time of day (`CLOCK_REALTIME`), which can jump; for stamps, not for measuring.
package enum WallClock {
    /// Now, in whole seconds since 1970 and the nanoseconds past them.
    package static func now() -> (seconds: Int64, nanoseconds: Int64) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return (Int64(now.tv_sec), Int64(now.tv_nsec))
    }

    /// The UTC calendar date and time of `seconds` since 1970.
    package static func utc(_ seconds: Int64) -> CalendarTime {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        return CalendarTime(
            year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday),
            hour: Int(parts.tm_hour), minute: Int(parts.tm_min), second: Int(parts.tm_sec))
    }

    /// The seconds since 1970 of the UTC date and time `time` (`timegm`).
    package static func seconds(of time: CalendarTime) -> Int64 {
        var parts = tm()
        parts.tm_year = Int32(time.year - 1900)
        parts.tm_mon = Int32(time.month - 1)
        parts.tm_mday = Int32(time.day)
        parts.tm_hour = Int32(time.hour)
        parts.tm_min = Int32(time.minute)
        parts.tm_sec = Int32(time.second)
        return Int64(timegm(&parts))
    }
}

/// A date and time of day, in UTC.
package struct CalendarTime: Equatable, Sendable {
    package var year: Int
    package var month: Int
    package var day: Int
    package var hour: Int
    package var minute: Int
    package var second: Int

    /// A date and time from its parts.
    package init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
    }
}

/// A clock that only moves forward (`CLOCK_MONOTONIC`), for measuring durations.
package enum MonotonicClock {
    /// Seconds since some fixed moment in the past.
    package static func seconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
