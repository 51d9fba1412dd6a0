import FoundationEssentials
import Synchronization

/// A one-line progress bar on stderr, only when stderr is a terminal; redrawn at most ten times a second.
/// Sendable because its drawing state lives in a `Mutex`: the builder may report from any thread.
final class ProgressBar: Sendable {
    private struct State {
        var lastDraw = Date.distantPast
        var drawn = false
    }

    private let console: Console
    let isEnabled: Bool
    private let state = Mutex(State())

    init(console: Console, enabled: Bool) {
        self.console = console
        self.isEnabled = enabled
    }

    /// Shows `done` of `total` bytes.
    func update(done: UInt64, total: UInt64) {
        guard isEnabled else { return }
        let now = Date()
        let due = state.withLock { state in
            guard now.timeIntervalSince(state.lastDraw) >= 0.1 || done == total else { return false }
            state.lastDraw = now
            state.drawn = true
            return true
        }
        guard due else { return }
        let fraction = total == 0 ? 1 : min(1, Double(done) / Double(total))
        let width = 30
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        console.writeErr(
            "\r\(console.styled(bar, "36")) \(Int(fraction * 100))% \(ByteCount.text(done)) of \(ByteCount.text(total))\u{1B}[K"
        )
    }

    /// Clears the bar's line.
    func finish() {
        if state.withLock({ $0.drawn }) { console.writeErr("\r\u{1B}[K") }
    }
}
