import ArgumentParser

/// When text output is coloured.
package enum ColorMode: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// Only on a terminal, and never with NO_COLOR set or TERM=dumb.
    case auto
    /// Always, even when redirected: for CI logs that render ANSI colour.
    case always
    /// Never.
    case never
}

/// The output options every command that prints a report shares: the format, colour and quiet.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print a JSON document (with a schemaVersion) on stdout instead of text.")
    var json = false

    @Option(help: "Colour: auto (only on a terminal, never with NO_COLOR set), always or never.")
    var color: ColorMode = .auto

    @Flag(name: .shortAndLong, help: "Print nothing on stderr but errors: no progress bar, warnings or notes.")
    var quiet = false

    /// Runs `body` with the console these options describe.
    func apply<Result>(_ body: () throws -> Result) throws -> Result {
        var console = Console.current
        console.colorMode = color
        console.quiet = quiet
        return try Console.$current.withValue(console) { try body() }
    }
}
