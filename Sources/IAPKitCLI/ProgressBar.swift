import Foundation

/// A one-line progress bar on stderr, only when stderr is a terminal; redrawn at most ten times a second.
final class ProgressBar: @unchecked Sendable {
    private let console: Console
    let isEnabled: Bool
    private var lastDraw = Date.distantPast
    private var drawn = false

    init(console: Console, enabled: Bool) {
        self.console = console
        self.isEnabled = enabled
    }

    /// Shows `done` of `total` bytes.
    func update(done: UInt64, total: UInt64) {
        guard isEnabled else { return }
        let now = Date()
        guard now.timeIntervalSince(lastDraw) >= 0.1 || done == total else { return }
        lastDraw = now
        let fraction = total == 0 ? 1 : min(1, Double(done) / Double(total))
        let width = 30
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        console.writeErr(
            "\r\(console.styled(bar, "36")) \(Int(fraction * 100))% \(ByteCount.text(done)) of \(ByteCount.text(total))\u{1B}[K"
        )
        drawn = true
    }

    /// Clears the bar's line.
    func finish() {
        if drawn { console.writeErr("\r\u{1B}[K") }
    }
}
