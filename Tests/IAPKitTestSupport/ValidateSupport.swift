import Foundation
import IAPRules
import IAPTestSupport
import Testing

/// What `iapkg validate --json` said about a run.
package struct ValidateRun {
    /// One finding as the JSON report carries it.
    package struct Finding: Decodable {
        package var rule: String
        package var severity: String
        package var entry: String?
        package var storedEntry: String?
        package var offset: UInt64?
        package var message: String
    }

    /// One input's report.
    package struct Input: Decodable {
        package var path: String
        package var valid: Bool
        package var shape: String?
        package var findings: [Finding]
        package var productIdentifier: String?
        package var contentVersion: String?
    }

    /// The whole document.
    package struct Document: Decodable {
        package var schemaVersion: Int
        package var valid: Bool
        package var inputs: [Input]
        package var unreadable: [Unreadable]
    }

    package struct Unreadable: Decodable {
        package var path: String
        package var message: String
    }

    package var result: Harness.Result
    package var document: Document?
    /// Wall time the binary took, in seconds.
    package var seconds: Double

    package var status: Int32 { result.status }
    /// Every finding of every input.
    package var findings: [Finding] { document?.inputs.flatMap(\.findings) ?? [] }
    /// The rule ids found, errors and warnings alike.
    package var rules: Set<String> { Set(findings.map(\.rule)) }
    /// Rule ids of error findings only.
    package var errorRules: Set<String> { Set(findings.filter { $0.severity == "error" }.map(\.rule)) }
    /// Rule ids of warning findings only.
    package var warningRules: Set<String> { Set(findings.filter { $0.severity == "warning" }.map(\.rule)) }
    /// A readable dump for failure messages.
    package var dump: String {
        findings.map {
            "\($0.severity)[\($0.rule)] \($0.entry ?? "-") @\($0.offset.map(String.init) ?? "-"): \($0.message)"
        }
        .joined(separator: "\n") + "\nstatus \(status)\nstderr: \(result.stderr)"
    }
}

/// Checks verdicts: `run` is the built binary's `validate --json`; the `expect…` checks judge one
/// rule through the library in this process (``ValidateInProcess``), named by its typed `Rule`.
package enum Validate {
    /// A bound on a refusal that must come from the declared numbers, before any decoding. Decoding
    /// the bombs these tests declare (100 GiB, 20 GiB, a billion laughs) takes minutes, so a bound
    /// this loose still fails if the numbers are not judged first, yet a loaded CI machine or a
    /// sanitizer build does not trip it. Speed itself is measured in Benchmarks/, never here.
    package static let refusedBeforeDecodingSeconds = 20.0

    /// Runs `iapkg validate <paths> --json <extra>`.
    package static func run(_ paths: [String], _ extra: [String] = [], environment: [String: String] = [:]) throws
        -> ValidateRun
    {
        let start = Date()
        let result = try Harness.run(["iapkg", "validate"] + paths + ["--json"] + extra, environment: environment)
        let seconds = Date().timeIntervalSince(start)
        let document = try? JSONDecoder().decode(ValidateRun.Document.self, from: result.stdoutData)
        return ValidateRun(result: result, document: document, seconds: seconds)
    }

    package static func run(_ path: String, _ extra: [String] = []) throws -> ValidateRun { try run([path], extra) }

    /// Expects exit 1 and an error finding under `rule` (naming `entry` when given).
    @discardableResult
    package static func expectError(
        _ path: String, _ typedRule: Rule, entry: String? = nil, extra: [String] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ValidateRun {
        let rule = typedRule.id
        let run = try ValidateInProcess.run(path, extra)
        #expect(run.status == 1, "\(run.dump)", sourceLocation: sourceLocation)
        // One style everywhere: content entries relative to the content root, never "./Contents/…".
        #expect(
            !run.findings.contains { $0.entry?.hasPrefix("./") == true }, "\(run.dump)", sourceLocation: sourceLocation)
        #expect(run.errorRules.contains(rule), "expected error \(rule):\n\(run.dump)", sourceLocation: sourceLocation)
        if let entry {
            let named = run.findings.contains { $0.rule == rule && ($0.entry ?? "").contains(entry) }
            #expect(named, "expected \(rule) naming \(entry):\n\(run.dump)", sourceLocation: sourceLocation)
        }
        return run
    }

    /// Expects exit 0 and a warning finding under `rule`.
    @discardableResult
    package static func expectWarning(
        _ path: String, _ typedRule: Rule, extra: [String] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ValidateRun {
        let rule = typedRule.id
        let run = try ValidateInProcess.run(path, extra)
        #expect(run.status == 0, "\(run.dump)", sourceLocation: sourceLocation)
        #expect(
            run.warningRules.contains(rule), "expected warning \(rule):\n\(run.dump)", sourceLocation: sourceLocation)
        #expect(run.errorRules.isEmpty, "\(run.dump)", sourceLocation: sourceLocation)
        return run
    }

    /// Expects exit 0 and no finding at all.
    @discardableResult
    package static func expectClean(
        _ path: String, extra: [String] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ValidateRun {
        let run = try ValidateInProcess.run(path, extra)
        #expect(run.status == 0, "\(run.dump)", sourceLocation: sourceLocation)
        #expect(run.findings.isEmpty, "expected no findings:\n\(run.dump)", sourceLocation: sourceLocation)
        #expect(run.document?.inputs.first?.valid == true, "\(run.dump)", sourceLocation: sourceLocation)
        return run
    }

    /// Expects exit 0 and neither `rule` nor any error.
    @discardableResult
    package static func expectPasses(
        _ path: String, without typedRule: Rule, extra: [String] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ValidateRun {
        let rule = typedRule.id
        let run = try ValidateInProcess.run(path, extra)
        #expect(run.status == 0, "\(run.dump)", sourceLocation: sourceLocation)
        #expect(!run.rules.contains(rule), "did not expect \(rule):\n\(run.dump)", sourceLocation: sourceLocation)
        #expect(run.errorRules.isEmpty, "\(run.dump)", sourceLocation: sourceLocation)
        return run
    }
}
