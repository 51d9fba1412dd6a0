import Foundation
import Testing

/// Every `console` block of README.md and of the guides (the DocC articles, CONTRIBUTING.md,
/// Benchmarks/README.md), run as written against the built binary, so the documentation cannot
/// drift from what the tool does. Each document runs in a scratch folder of its own holding a copy
/// of `Examples/`, its blocks in order.
@Suite(.onTestThreads) struct ReadmeTests {
    /// One `$ command` with the output and exit status a document shows for it.
    struct Step {
        var command: String
        var expected: [String]
        var status: Int32
    }

    /// The documents with `console` blocks, relative to the package root: README.md first.
    static func documents() throws -> [String] {
        let root = Harness.packageRoot.path
        var candidates = ["README.md", ".github/CONTRIBUTING.md", "Benchmarks/README.md"]
        let sources = FileManager.default.enumerator(atPath: root + "/Sources")?.allObjects ?? []
        candidates += sources.compactMap { $0 as? String }.filter { $0.contains(".docc/") && $0.hasSuffix(".md") }
            .sorted().map { "Sources/" + $0 }
        return try candidates.filter { path in
            guard FileManager.default.fileExists(atPath: root + "/" + path) else { return false }
            return try !steps(in: path).isEmpty
        }
    }

    /// The steps of the `console` blocks of the document at `path` (relative to the package root).
    static func steps(in path: String) throws -> [Step] {
        let text = try String(contentsOf: Harness.packageRoot.appendingPathComponent(path), encoding: .utf8)
        var steps: [Step] = []
        var inConsole = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
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

    /// README is a card a newcomer reads in five minutes: at most 300 lines, the set-up commands
    /// on its first screen, and every file it links to there.
    @Test func theReadmeIsShortAndItsLinksLead() throws {
        let readme = try String(contentsOf: Harness.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count <= 300)
        let firstCommand = try #require(lines.firstIndex { $0.hasPrefix("apt-get update && apt-get install") })
        #expect(firstCommand < 40)
        #expect(lines[..<60].contains("swift test"))
        let targets = readme.matches(of: /\]\(([^)#]+)(#[^)]*)?\)/).map { String($0.output.1) }
            .filter { !$0.hasPrefix("http") }
        #expect(targets.count >= 10)
        for target in targets {
            let exists = FileManager.default.fileExists(atPath: Harness.packageRoot.appendingPathComponent(target).path)
            #expect(exists, "README links to \(target), which is not there")
        }
    }

    /// The set-up command's `apt-get install` holds every C library Package.swift builds against
    /// (each `.systemLibrary`'s apt provider), so that `swift test` builds after it on a new machine.
    @Test func theSetUpCommandInstallsEveryLibraryTheBuildNeeds() throws {
        let readme = try String(contentsOf: Harness.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let manifest = try String(
            contentsOf: Harness.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let setUp = try #require(
            readme.split(separator: "\n").first { $0.hasPrefix("apt-get update && apt-get install") })
        let installed = Set(setUp.split(separator: " ").map(String.init))
        let providers = manifest.matches(of: /\.apt\(\[([^\]]*)\]\)/).flatMap { match in
            match.output.1.matches(of: /"([^"]+)"/).map { String($0.output.1) }
        }
        #expect(providers.count >= 8)
        for package in providers {
            #expect(installed.contains(package), "README's set-up command does not install \(package)")
        }
    }

    @Test func theReadmeAndTheCommandGuideHaveExamples() throws {
        let documents = try Self.documents()
        #expect(documents.first == "README.md")
        #expect(documents.contains("Sources/IAPKit/IAPKit.docc/Commands.md"))
        #expect(try Self.steps(in: "README.md").count >= 5)
        #expect(try documents.map { try Self.steps(in: $0).count }.reduce(0, +) >= 30)
    }

    @Test(arguments: try documents()) func everyConsoleExampleRunsAsShown(document: String) throws {
        let scratch = ScratchFolder()
        let copy = try Harness.run([
            "cp", "-a", Harness.packageRoot.appendingPathComponent("Examples").path, scratch.at("Examples"),
        ])
        #expect(copy.status == 0)
        let binFolder = (Harness.binary as NSString).deletingLastPathComponent
        let path = binFolder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        for step in try Self.steps(in: document) {
            let result = try Harness.run(
                ["sh", "-c", step.command + " 2>&1"], in: scratch.path, environment: ["PATH": path])
            #expect(result.status == step.status, "\(document): \(step.command)\n\(result.stdout)")
            var actual = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map {
                Self.masked(String($0))
            }
            if actual.last == "" { actual.removeLast() }
            #expect(actual == step.expected.map(Self.masked), "\(document): \(step.command)")
        }
    }
}
