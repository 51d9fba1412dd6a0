import IAPClient
import IAPCore

/// A one-line progress bar on stderr (only on a terminal): bytes done of the total, rate, time left.
final class ProgressBar: Sendable {
    let enabled: Bool

    init(enabled: Bool) { self.enabled = enabled }

    /// Redraws the line for `progress`.
    func draw(_ progress: FetchProgress) {
        guard enabled, progress.bytesTotal > 0 else { return }
        let width = 24
        let filled = Int(progress.fractionDone * Double(width))
        let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
        var line = "\r[\(bar)] \(Int(progress.fractionDone * 100))% \(Summary.bytes(progress.bytesDone))"
        line += " of \(Summary.bytes(progress.bytesTotal)), \(Summary.bytes(UInt64(progress.bytesPerSecond)))/s"
        if let left = progress.secondsRemaining { line += ", \(Int(left.rounded(.up))) s left" }
        if progress.isPaused { line += " (paused)" }
        CurrentProcess.writeToStandardError(line + "\u{1B}[K")
    }

    /// Removes the line.
    func clear() {
        if enabled { CurrentProcess.writeToStandardError("\r\u{1B}[K") }
    }
}

/// The summary line and byte counts as people read them.
enum Summary {
    static func line(_ report: FetchReport) -> String {
        if report.action == "up-to-date" {
            return "\(report.productIdentifier) \(report.version) is up to date in \(report.contentsPath)"
        }
        let from = report.previousVersion.map { " (was \($0))" } ?? ""
        return "Installed \(report.productIdentifier) \(report.version)\(from) in \(report.contentsPath): "
            + "\(report.filesFetched) files fetched (\(report.bytesFetched) bytes over the network"
            + (report.bytesResumed > 0 ? ", \(report.bytesResumed) resumed" : "") + "), "
            + "\(report.filesReused) reused (\(report.bytesReused) bytes), \(report.symlinks) symlinks, "
            + decimal(report.seconds, places: 2) + " s"
    }

    static func bytes(_ count: UInt64) -> String {
        if count < 1024 { return "\(count) B" }
        if count < 1 << 20 { return decimal(Double(count) / 1024, places: 1) + " KiB" }
        if count < 1 << 30 { return decimal(Double(count) / 1_048_576, places: 1) + " MiB" }
        return decimal(Double(count) / 1_073_741_824, places: 2) + " GiB"
    }

    /// `value` rounded to `places` decimals (at most 3), written with a point: "12.35".
    static func decimal(_ value: Double, places: Int) -> String {
        let scale = [1, 10, 100, 1000][min(max(places, 0), 3)]
        let scaled = Int((value * Double(scale)).rounded())
        guard scale > 1 else { return String(scaled) }
        let fraction = String(abs(scaled) % scale)
        let sign = scaled < 0 ? "-" : ""
        return sign + String(abs(scaled) / scale) + "." + String(repeating: "0", count: places - fraction.count)
            + fraction
    }
}
