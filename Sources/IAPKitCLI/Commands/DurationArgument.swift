import ArgumentParser

/// A span of time on the command line: seconds (`90`, `0.5`), or a number with `s`, `m`, `h` or
/// `d` (`30m`, `24h`, `7d`).
struct DurationArgument: ExpressibleByArgument, Sendable {
    /// The span in seconds.
    var seconds: Double

    init(seconds: Double) { self.seconds = seconds }

    init?(argument: String) {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        var text = Substring(argument)
        var unit = 1.0
        if let last = text.last, let factor = units[last] {
            unit = factor
            text = text.dropLast()
        }
        guard let value = Double(text), value.isFinite, value >= 0 else { return nil }
        seconds = value * unit
    }

    var defaultValueDescription: String {
        for (unit, size) in [("h", 3600.0), ("m", 60)]
        where seconds >= size && seconds.remainder(dividingBy: size) == 0 {
            return "\(Int(seconds / size))\(unit)"
        }
        return seconds == seconds.rounded() ? "\(Int(seconds))s" : "\(seconds)s"
    }
}
