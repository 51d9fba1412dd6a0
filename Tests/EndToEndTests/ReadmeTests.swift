import Foundation
import Testing

/// Every `console` block of README.md, run as written against the built binary, so the
/// documentation cannot drift from what the tool does.
@Suite(.onTestThreads) struct ReadmeTests {
    /// One `$ command` with the output and exit status README shows for it.
    struct Step {
        var command: String
        var expected: [String]
        var status: Int32
    }

    static func steps() throws -> [Step] {
        let readme = try String(contentsOf: Harness.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        var steps: [Step] = []
        var inConsole = false
        for line in readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("```") {
                inConsole = !inConsole && line == "```console"
                continue
            }
            guard inConsole else { continue }
            if line.hasPrefix("$ ") {
                steps.append(Step(command: String(line.dropFirst(2)), expected: [], status: 0))
            } else if line.hasPrefix("(exit status "), let status = Int32(line.dropFirst(13).dropLast()) {
                steps[steps.count - 1].status = status
            } else if !steps.isEmpty {
                steps[steps.count - 1].expected.append(line)
            }
        }
        return steps
    }

    /// Hides what changes from run to run: elapsed seconds.
    static func masked(_ line: String) -> String {
        line.replacingOccurrences(of: #"\d+\.\d+ s\b"#, with: "_ s", options: .regularExpression)
    }

    @Test func everyConsoleExampleRunsAsShown() throws {
        let steps = try Self.steps()
        #expect(steps.count >= 10)
        let scratch = ScratchFolder()
        let copy = try Harness.run([
            "cp", "-a", Harness.packageRoot.appendingPathComponent("Examples").path, scratch.at("Examples"),
        ])
        #expect(copy.status == 0)
        let binFolder = (Harness.binary as NSString).deletingLastPathComponent
        let path = binFolder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        for step in steps {
            let result = try Harness.run(
                ["sh", "-c", step.command + " 2>&1"], in: scratch.path, environment: ["PATH": path])
            #expect(result.status == step.status, "\(step.command)\n\(result.stdout)")
            var actual = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map {
                Self.masked(String($0))
            }
            if actual.last == "" { actual.removeLast() }
            #expect(actual == step.expected.map(Self.masked), "\(step.command)")
        }
    }
}
