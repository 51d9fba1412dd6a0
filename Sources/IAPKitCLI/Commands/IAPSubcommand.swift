import ArgumentParser
import IAPKit
import IAPSystem

/// The shape every `iapkg` subcommand fills in: ArgumentParser parses and validates its options,
/// ``execute()`` does the work and says how it ended, and ``run()`` — the one boundary of the CLI —
/// turns that outcome, or a domain error, into a message on stderr and the documented exit status.
protocol IAPSubcommand: ParsableCommand {
    /// The shared output options (`--json`, `--color`, `--quiet`), for a command that has them.
    var consoleOptions: OutputOptions? { get }

    /// Does the command's work and says how it ended; domain errors are thrown as they are.
    func execute() throws -> ExitStatus
}

extension IAPSubcommand {
    var consoleOptions: OutputOptions? { nil }

    func run() throws {
        let status = try CommandBoundary.run(consoleOptions) { try execute() }
        if status != .success { throw ExitCode(status.rawValue) }
    }
}

/// Where every command's errors become words and an exit status.
enum CommandBoundary {
    /// Runs `body` with the console `output` describes (the current one without). An ``IAPKitError``
    /// prints its findings and its message and ends with its status; a ``SystemError`` is exit 2;
    /// anything else (a usage error) goes on to ArgumentParser.
    static func run(_ output: OutputOptions?, _ body: () throws -> ExitStatus) throws -> ExitStatus {
        guard let output else { return try handlingErrors(body) }
        return try output.apply { try handlingErrors(body) }
    }

    private static func handlingErrors(_ body: () throws -> ExitStatus) throws -> ExitStatus {
        let console = Console.current
        do {
            return try body()
        } catch let error as IAPKitError {
            if case .invalid(let path, let findings) = error {
                for finding in findings { console.err(FindingText.line(finding, path: path, console: console)) }
            }
            console.err(console.styled("iapkg: error: ", "1;31") + error.description)
            return ExitStatus(rawValue: error.exitStatus) ?? .couldNotWork
        } catch let error as SystemError {
            console.err(console.styled("iapkg: error: ", "1;31") + error.description)
            return .couldNotWork
        }
    }

    /// Prints `error` on stderr, its findings first, and returns its exit status.
    static func report(_ error: IAPKitError, on console: Console) -> ExitStatus {
        if case .invalid(let path, let findings) = error {
            for finding in findings { console.err(FindingText.line(finding, path: path, console: console)) }
        }
        console.err(console.styled("iapkg: error: ", "1;31") + error.description)
        return ExitStatus(rawValue: error.exitStatus) ?? .couldNotWork
    }
}
