import ArgumentParser
import Foundation
import IAPSystem
import IAPTestSupport
import Testing

@testable import IAPKitCLI

/// Commands run in-process with a console whose streams and terminal-ness the test chooses:
/// colour and progress only on a terminal, NO_COLOR honoured, JSON documents versioned.
@Suite(.serialized) struct CommandOutputTests {
    /// Captures what a command writes.
    final class Capture: @unchecked Sendable {
        private let lock = NSLock()
        private var outText = ""
        private var errText = ""
        var out: String { lock.withLock { outText } }
        var err: String { lock.withLock { errText } }

        func console(terminal: Bool, outTerminal: Bool? = nil, environment: [String: String] = [:]) -> Console {
            Console(
                writeOut: { text in self.lock.withLock { self.outText += text } },
                writeErr: { text in self.lock.withLock { self.errText += text } },
                errIsTerminal: terminal, outIsTerminal: outTerminal ?? terminal, environment: environment)
        }
    }

    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Examples")

    /// Runs `arguments` in-process; returns the exit status (0 when nothing was thrown).
    @discardableResult
    func run(_ arguments: [String], _ console: Console) -> Int32 {
        do {
            var command = try IAPCommand.parseAsRoot(arguments)
            try Console.$current.withValue(console) { try command.run() }
            return 0
        } catch {
            return IAPCommand.exitCode(for: error).rawValue
        }
    }

    @Test func colourOnlyOnATerminalAndNeverWithNoColor() {
        let capture = Capture()
        #expect(capture.console(terminal: true, environment: [:]).useColor)
        #expect(!capture.console(terminal: false, environment: [:]).useColor)
        #expect(!capture.console(terminal: true, environment: ["NO_COLOR": "1"]).useColor)
        #expect(!capture.console(terminal: true, environment: ["TERM": "dumb"]).useColor)

        let broken = Self.examples.appendingPathComponent("broken-pack").path
        let coloured = Capture()
        #expect(run(["validate", broken], coloured.console(terminal: true)) == 1)
        #expect(coloured.out.contains("\u{1B}["))
        let plain = Capture()
        #expect(run(["validate", broken], plain.console(terminal: true, environment: ["NO_COLOR": "1"])) == 1)
        #expect(!plain.out.contains("\u{1B}["))
        #expect(plain.out.contains("error[exec-elf]"))
        // Colour is decided per stream: a report redirected to a file gets none, even when stderr
        // is still a terminal.
        let redirected = Capture()
        #expect(run(["validate", broken], redirected.console(terminal: true, outTerminal: false)) == 1)
        #expect(!redirected.out.contains("\u{1B}["), "\(redirected.out)")
        #expect(redirected.out.contains("error[exec-elf]"))
    }

    @Test func progressBarOnlyOnATerminal() throws {
        let scratch = ScratchFolder()
        let folder = scratch.path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let source = Self.examples.appendingPathComponent("level-pack").path
        let onTerminal = Capture()
        #expect(run(["build", source, "-o", folder + "/a.pkg"], onTerminal.console(terminal: true)) == 0)
        #expect(onTerminal.err.contains("\r"))
        #expect(onTerminal.err.contains("%"))
        let piped = Capture()
        #expect(run(["build", source, "-o", folder + "/b.pkg"], piped.console(terminal: false)) == 0)
        #expect(!piped.err.contains("\r"))
        #expect(piped.err.hasPrefix("Built "))
        #expect(piped.out.isEmpty)
    }

    @Test func everyJSONDocumentIsVersioned() throws {
        let scratch = ScratchFolder()
        let folder = scratch.path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let copy = folder + "/pack"
        try FileManager.default.copyItem(atPath: Self.examples.appendingPathComponent("level-pack").path, toPath: copy)
        let commands: [[String]] = [
            ["build", copy, "-o", folder + "/v10.pkg", "--json"],
            ["inspect", folder + "/v10.pkg", "--json"],
            ["validate", folder + "/v10.pkg", "--json"],
            ["unpack", folder + "/v10.pkg", "--into", folder + "/srv", "--json"],
            ["list", folder + "/srv", "--json"],
            ["bump", copy, "--json"],
        ]
        for arguments in commands {
            let capture = Capture()
            #expect(run(arguments, capture.console(terminal: false)) == 0, "\(arguments): \(capture.err)")
            let document = try JSONSerialization.jsonObject(with: Data(capture.out.utf8)) as? [String: Any]
            #expect(document?["schemaVersion"] as? Int == 1, "\(arguments): \(capture.out)")
        }
    }

    @Test func compressionLevelIsChecked() {
        let capture = Capture()
        let source = Self.examples.appendingPathComponent("book-chapter").path
        #expect(run(["build", source, "--level", "13"], capture.console(terminal: false)) == 64)
        #expect(run(["build", source, "--level", "0"], capture.console(terminal: false)) == 64)
    }
}
