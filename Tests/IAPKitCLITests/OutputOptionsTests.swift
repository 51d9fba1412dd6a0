import ArgumentParser
import Foundation
import IAPTestSupport
import Testing

@testable import IAPKitCLI

/// The output options every reporting command shares: `--json`, `--color` and `--quiet`.
@Suite(.serialized) struct OutputOptionsTests {
    typealias Capture = CommandOutputTests.Capture
    let harness = CommandOutputTests()
    let broken = CommandOutputTests.examples.appendingPathComponent("broken-pack").path
    let levelPack = CommandOutputTests.examples.appendingPathComponent("level-pack").path

    @Test func everyReportingCommandTakesTheSameOutputOptions() throws {
        let commands: [[String]] = [
            ["build", "folder"], ["bump", "folder"], ["diff", "a", "b"], ["inspect", "a.pkg"], ["list", "root"],
            ["rules"], ["unpack", "a.pkg", "--into", "root"], ["validate", "a.pkg"],
        ]
        for command in commands {
            for options in [["--json"], ["--color", "always"], ["--color", "never"], ["--quiet"], ["-q"]] {
                #expect(throws: Never.self, "\(command + options)") {
                    _ = try IAPCommand.parseAsRoot(command + options)
                }
            }
            #expect(throws: (any Error).self) { _ = try IAPCommand.parseAsRoot(command + ["--color", "sometimes"]) }
        }
    }

    @Test func colorAlwaysAndNeverOverrideTheTerminalAndNoColor() {
        let forced = Capture()
        let redirected = forced.console(terminal: false, environment: ["NO_COLOR": "1"])
        #expect(harness.run(["validate", broken, "--color", "always"], redirected) == 1)
        #expect(forced.out.contains("\u{1B}["), "\(forced.out)")
        let never = Capture()
        #expect(harness.run(["validate", broken, "--color", "never"], never.console(terminal: true)) == 1)
        #expect(!never.out.contains("\u{1B}["))
        #expect(!never.err.contains("\u{1B}["))
        #expect(never.out.contains("error[exec-elf]"))
    }

    @Test func quietKeepsStderrForErrorsOnly() throws {
        let scratch = ScratchFolder()
        let folder = scratch.path
        // A build on a terminal: no progress bar, no summary; the package is still written.
        let quiet = Capture()
        #expect(
            harness.run(["build", levelPack, "-o", folder + "/a.pkg", "--quiet"], quiet.console(terminal: true)) == 0)
        #expect(quiet.err.isEmpty, "\(quiet.err)")
        #expect(FileManager.default.fileExists(atPath: folder + "/a.pkg"))
        let loud = Capture()
        #expect(harness.run(["build", levelPack, "-o", folder + "/b.pkg"], loud.console(terminal: true)) == 0)
        #expect(loud.err.contains("Built "))
        // The report is data, on stdout: --quiet leaves it alone.
        let report = Capture()
        #expect(harness.run(["validate", broken, "-q"], report.console(terminal: false)) == 1)
        #expect(report.out.contains("error[exec-elf]"))
        // Errors still reach stderr.
        let failing = Capture()
        #expect(harness.run(["build", folder + "/missing", "--quiet"], failing.console(terminal: false)) == 2)
        #expect(failing.err.contains("iapkg: error"), "\(failing.err)")
    }
}
