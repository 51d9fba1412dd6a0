import ArgumentParser
import FoundationEssentials
import IAPCore
import IAPKit
import IAPRules

/// `iapkg serve`: a long-running service that installs each package dropped into a folder.
struct ServeCommand: IAPSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Watch a folder and install each complete package dropped into it, exactly once.",
        discussion: """
            A package is taken once complete (closed after writing, or renamed into the folder; hidden \
            names, *.part and *.tmp are ignored), claimed by a rename into DIR/.processing/, validated and \
            installed as 'unpack' does, then moved to DIR/accepted/ or DIR/rejected/ with NAME.report.json \
            (the 'validate --json' document) beside it. A killed service redoes what .processing/ holds at \
            its next start; SIGTERM and SIGINT finish the packages in hand, then exit 0.

            stdout: one JSON line per package handled; stderr: the same as text.

            Example:
              iapkg serve --incoming /srv/incoming --into /srv/content --keep 3
            """)

    enum Activation: String, ExpressibleByArgument, CaseIterable {
        case newest, never
    }

    @Option(help: "The folder packages are dropped into.")
    var incoming: String

    @Option(help: "The root folder of the version store.")
    var into: String

    @Option(help: "Which versions 'current' moves to: newest (only ever up) or never.")
    var activate: Activation = .newest

    @Option(help: "Keep at most this many versions per product (the current one is never removed).")
    var keep: Int?

    @Flag(help: "Allow installing a version lower than the current one ('current' does not move back).")
    var allowDowngrade = false

    @Flag(help: "Validate with warnings as errors.")
    var strict = false

    @Option(help: "The product identifier every package must have.")
    var productId: String?

    @Option(help: "Largest unpacked total accepted, in bytes (default 2 GiB).")
    var maxUnpackedSize: UInt64 = ContentRules.defaultMaxUnpackedBytes

    @Option(help: "Packages handled at once (default: the number of processors).")
    var jobs: Int?

    @Option(help: "Seconds between scans of the folder, the safety net for missed events.")
    var rescanSeconds: Double = 30

    @Option(help: "A package found by a scan (not by an event) is taken once unchanged this long.")
    var settleSeconds: Double = 2

    func validate() throws {
        if let keep, keep < 1 { throw ValidationError("--keep must be at least 1") }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if !(rescanSeconds > 0) { throw ValidationError("--rescan-seconds must be positive") }
        if !(settleSeconds >= 0) { throw ValidationError("--settle-seconds must not be negative") }
        if let productId, let problem = ProductIdentifier.problem(with: productId) {
            throw ValidationError("'\(productId)' is not a valid product identifier: \(problem)")
        }
    }

    func execute() throws -> ExitStatus {
        let console = Console.current
        var unpack = UnpackOptions(
            activate: activate == .newest, keep: keep, allowDowngrade: allowDowngrade, strict: strict,
            maxUnpackedSize: maxUnpackedSize, productIdentifier: productId)
        unpack.activateLowerVersions = false
        let options = ServeOptions(
            incoming: incoming, root: into, unpack: unpack, jobs: jobs ?? CurrentProcess.processorCount,
            rescanSeconds: rescanSeconds, settleSeconds: settleSeconds)
        let log = ServeLog(console: console)
        let stop = try StopSignals()
        let server = try Server(options: options, render: ServeReport.render, sink: log.write)
        console.err("iapkg serve: watching \(incoming), installing into \(into) (\(options.jobs) jobs)")
        try server.run(stop: stop)
        console.err("iapkg serve: stopped")
        return .success
    }
}

/// The report kept beside a handled package: the `validate --json` document.
enum ServeReport {
    static func render(_ input: ServeReportInput) -> [UInt8] {
        var reports: [ValidationReport] = []
        var unreadable: [(path: String, message: String)] = []
        if var report = input.validation {
            if let failure = input.failure {
                let rule: Rule = input.unreadable ? Rule.unpackFailed : Rule.unpackRefused
                report.findings.append(rule.finding(nil, failure))
                report.errors += 1
                report.valid = false
            }
            reports.append(report)
        } else {
            unreadable.append((input.path, input.failure ?? "unreadable"))
        }
        let document = ValidationOutput(reports: reports, unreadable: unreadable).document
        return Array(((try? JSONOutput.encode(document)) ?? "{}").utf8) + [0x0A]
    }
}

/// One JSON line per event on stdout, one readable line on stderr, from any thread.
final class ServeLog: Sendable {
    private let console: Console
    private let lock = ConditionLock()

    init(console: Console) { self.console = console }

    private struct Line: Encodable {
        var time: String
        var file: String
        var product: String?
        var version: String?
        var outcome: String
        var action: String?
        var current: String?
        var movedTo: String
        var seconds: Double
        var findings: Int
        var message: String?
    }

    @Sendable func write(_ event: ServeEvent) {
        let time = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt).format(Date())
        let line = Line(
            time: time, file: event.file, product: event.productIdentifier, version: event.version,
            outcome: event.outcome.rawValue,
            action: event.action?.rawValue, current: event.current, movedTo: event.movedTo,
            seconds: (event.seconds * 1000).rounded() / 1000, findings: event.findings, message: event.message)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = (try? encoder.encode(line)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        var text = "\(event.file): \(event.outcome.rawValue)"
        if let product = event.productIdentifier, let version = event.version {
            text += " (\(product) \(version)" + (event.action.map { ", \($0.rawValue)" } ?? "") + ")"
        }
        if let message = event.message { text += ": " + message }
        text += " [" + FixedPoint.text(event.seconds, places: 2) + " s]"
        lock.withLock {
            console.out(json)
            console.err("iapkg serve: " + text)
        }
    }
}
