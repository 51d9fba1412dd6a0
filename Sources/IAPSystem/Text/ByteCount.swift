/// Byte counts as people read them ("512 bytes", "12.0 KiB"), for the commands' summaries and
/// progress bars.
package enum ByteCount {
    /// `bytes` in the largest unit (KiB, MiB, GiB, TiB) that keeps the number at 1 or more, one decimal.
    package static func text(_ bytes: UInt64) -> String {
        let units = ["bytes", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(bytes) bytes" : FixedPoint.text(value, places: 1) + " " + units[unit]
    }
}
