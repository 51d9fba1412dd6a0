import IAPClient
import IAPSystem

/// What `iapkg fetch` tells people on stderr: the summary line at the end and the progress bar's text.
enum Summary {
    /// The line written once the version is installed or found up to date.
    static func line(_ report: FetchReport) -> String {
        if report.action == "up-to-date" {
            return "\(report.productIdentifier) \(report.version) is up to date in \(report.contentsPath)"
        }
        let from = report.previousVersion.map { " (was \($0))" } ?? ""
        return "Installed \(report.productIdentifier) \(report.version)\(from) in \(report.contentsPath): "
            + "\(report.filesFetched) files fetched (\(report.bytesFetched) bytes over the network"
            + (report.bytesResumed > 0 ? ", \(report.bytesResumed) resumed" : "") + "), "
            + "\(report.filesReused) reused (\(report.bytesReused) bytes), \(report.symlinks) symlinks, "
            + FixedPoint.text(report.seconds, places: 2) + " s"
    }

    /// Draws `progress` on `bar`: bytes done of the total, rate, time left, paused.
    static func draw(_ progress: FetchProgress, on bar: ProgressBar) {
        guard progress.bytesTotal > 0 else { return }
        bar.update(fraction: progress.fractionDone) {
            var label = "\(ByteCount.text(progress.bytesDone)) of \(ByteCount.text(progress.bytesTotal)), "
            label += "\(ByteCount.text(UInt64(max(0, progress.bytesPerSecond))))/s"
            if let left = progress.secondsRemaining { label += ", \(Int(left.rounded(.up))) s left" }
            if progress.isPaused { label += " (paused)" }
            return label
        }
    }
}
