import IAPSystem

/// Human-readable byte counts.
enum ByteCount {
    static func text(_ bytes: UInt64) -> String {
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

extension String {
    /// The text cut or padded with spaces to `width` characters, for aligned columns (what
    /// Foundation's `padding(toLength:withPad:startingAt:)` does with a space).
    func paddedOrCut(to width: Int) -> String {
        let count = self.count
        return count >= width ? String(prefix(width)) : self + String(repeating: " ", count: width - count)
    }
}
