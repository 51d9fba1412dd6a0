internal import IAPSystem

/// The moment a request is signed, in the two spellings SigV4 uses.
package struct SigningTime: Sendable, Equatable {
    /// Seconds since 1970, UTC.
    package let seconds: Int64
    /// `YYYYMMDD'T'HHMMSS'Z'`, the `X-Amz-Date` value.
    package let timestamp: String
    /// `YYYYMMDD`, the date in the credential scope.
    package let date: String

    /// The time `seconds` after 1970 (UTC).
    package init(seconds: Int64) {
        self.seconds = seconds
        let time = WallClock.utc(seconds)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        date = "\(time.year)" + two(time.month) + two(time.day)
        timestamp = date + "T" + two(time.hour) + two(time.minute) + two(time.second) + "Z"
    }

    /// Now, by the system clock.
    package static func now() -> SigningTime { SigningTime(seconds: WallClock.now().seconds) }
}
