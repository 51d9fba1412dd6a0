import FoundationEssentials
import IAPSystem

/// Where a command's output goes: stdout for data, stderr for people. Injected in tests.
package struct Console: Sendable {
    /// Writes to standard output (data: reports, JSON).
    package var writeOut: @Sendable (String) -> Void
    /// Writes to standard error (messages, progress, warnings).
    package var writeErr: @Sendable (String) -> Void
    /// Standard error is a terminal (progress bars only then).
    package var errIsTerminal: Bool
    /// Standard output is a terminal (colour in reports only then).
    package var outIsTerminal: Bool
    /// The process environment.
    package var environment: [String: String]
    /// When text is coloured (`--color`).
    package var colorMode = ColorMode.auto
    /// Only errors on stderr: no progress, warnings or notes (`--quiet`).
    package var quiet = false

    package init(
        writeOut: @escaping @Sendable (String) -> Void, writeErr: @escaping @Sendable (String) -> Void,
        errIsTerminal: Bool, outIsTerminal: Bool = false, environment: [String: String]
    ) {
        self.writeOut = writeOut
        self.writeErr = writeErr
        self.errIsTerminal = errIsTerminal
        self.outIsTerminal = outIsTerminal
        self.environment = environment
    }

    /// The real process streams.
    package static let standard = Console(
        writeOut: { text in CurrentProcess.writeToStandardOutput(text) },
        writeErr: { text in CurrentProcess.writeToStandardError(text) },
        errIsTerminal: CurrentProcess.isTerminal(2),
        outIsTerminal: CurrentProcess.isTerminal(1),
        environment: CurrentProcess.environment)

    /// The console commands write to; tests bind their own.
    @TaskLocal package static var current = Console.standard

    /// One of the two output streams.
    package enum Stream: Sendable { case out, err }

    /// Colour on standard error: only on a terminal, and never when NO_COLOR is set.
    package var useColor: Bool { useColor(on: .err) }

    /// Colour on `stream`: as `--color` says; by default only when that stream is a terminal, and
    /// never with NO_COLOR or TERM=dumb.
    package func useColor(on stream: Stream) -> Bool {
        switch colorMode {
        case .always: true
        case .never: false
        case .auto:
            (stream == .out ? outIsTerminal : errIsTerminal) && (environment["NO_COLOR"] ?? "").isEmpty
                && environment["TERM"] != "dumb"
        }
    }

    /// Prints a line to stdout.
    package func out(_ line: String) { writeOut(line + "\n") }
    /// Prints a line to stderr.
    package func err(_ line: String) { writeErr(line + "\n") }
    /// Prints a line for people to stderr, unless `--quiet`: a summary, a warning, a note.
    package func note(_ line: String) { if !quiet { err(line) } }

    /// `text` in the ANSI colour `code` when colour is on for the stream it will be written to.
    package func styled(_ text: String, _ code: String, on stream: Stream = .err) -> String {
        useColor(on: stream) ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
