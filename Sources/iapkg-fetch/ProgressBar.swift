import Foundation
import IAPClient

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
        FileHandle.standardError.write(Data((line + "\u{1B}[K").utf8))
    }

    /// Removes the line.
    func clear() {
        if enabled { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
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
            + String(format: "%.2f s", report.seconds)
    }

    static func bytes(_ count: UInt64) -> String {
        if count < 1024 { return "\(count) B" }
        if count < 1 << 20 { return String(format: "%.1f KiB", Double(count) / 1024) }
        if count < 1 << 30 { return String(format: "%.1f MiB", Double(count) / 1_048_576) }
        return String(format: "%.2f GiB", Double(count) / 1_073_741_824)
    }
}
