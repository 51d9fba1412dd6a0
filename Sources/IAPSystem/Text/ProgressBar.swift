import Synchronization

/// The one progress bar of iapkg's commands (`iapkg build`, `iapkg fetch`): one line on standard
/// error, redrawn at most ten times a second and cleared at the end. Drawn only when the caller
/// enables it (standard error a terminal, no `--quiet`, no `--json`: ``standardError(wanted:)``
/// decides so), coloured only when asked (`NO_COLOR` and `TERM=dumb` turn colour off). `Sendable`
/// because its drawing state lives in a `Mutex`: workers may report from any thread.
package final class ProgressBar: Sendable {
    private struct State {
        var lastDraw = -Double.infinity
        var drawn = false
    }

    /// Whether anything is drawn.
    package let isEnabled: Bool
    private let coloured: Bool
    private let write: @Sendable (String) -> Void
    private let state = Mutex(State())
    /// The bar's width in cells.
    private static let width = 30

    /// A bar drawn through `write` (standard error) when `enabled`, in colour when `coloured`.
    package init(
        enabled: Bool, coloured: Bool,
        write: @escaping @Sendable (String) -> Void = { CurrentProcess.writeToStandardError($0) }
    ) {
        isEnabled = enabled
        self.coloured = coloured
        self.write = write
    }

    /// A bar on standard error when `wanted` and standard error is a terminal, coloured unless
    /// `NO_COLOR` is set or `TERM` is `dumb`.
    package static func standardError(wanted: Bool) -> ProgressBar {
        let environment = CurrentProcess.environment
        let enabled = wanted && CurrentProcess.isTerminal(2)
        let coloured = (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
        return ProgressBar(enabled: enabled, coloured: enabled && coloured)
    }

    /// Shows `fraction` (0…1) done, then the text `label` makes ("12.0 MiB of 80.0 MiB, 3.1 MiB/s"),
    /// made only when drawn: at once when `fraction` reaches 1, otherwise at most every tenth of a second.
    package func update(fraction: Double, label: () -> String) {
        guard isEnabled else { return }
        let now = MonotonicClock.seconds()
        let fraction = fraction.isFinite ? min(1, max(0, fraction)) : 0
        let due = state.withLock { state in
            guard now - state.lastDraw >= 0.1 || fraction >= 1 else { return false }
            state.lastDraw = now
            state.drawn = true
            return true
        }
        guard due else { return }
        let filled = Int(fraction * Double(Self.width))
        var bar = String(repeating: "█", count: filled) + String(repeating: "░", count: Self.width - filled)
        if coloured { bar = "\u{1B}[36m" + bar + "\u{1B}[0m" }
        write("\r\(bar) \(Int(fraction * 100))% \(label())\u{1B}[K")
    }

    /// Clears the bar's line, if it was drawn.
    package func finish() {
        if state.withLock({ $0.drawn }) { write("\r\u{1B}[K") }
    }
}
