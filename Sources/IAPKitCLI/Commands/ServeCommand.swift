import ArgumentParser
import FoundationEssentials
import IAPKit
import IAPRules
import IAPServe
import IAPSystem

/// `iapkg serve`: a long-running service that installs each package dropped into a folder.
struct ServeCommand: IAPSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Watch a folder and install each complete package dropped into it, exactly once.",
        discussion: """
            A *.pkg file is taken once no process holds it open for writing (a read lease): at once \
            when renamed in, --settle-seconds after its last change when written in place. It is \
            claimed by a rename into DIR/.processing/, \
            validated and installed as 'unpack' does (one product's versions lowest first, one at a \
            time), then moved to DIR/accepted/ or DIR/rejected/ with NAME.report.json (the \
            'validate --json' document) beside it. A full disk, a read-only ROOT or an I/O error is \
            not the package's fault: it waits in .processing/ and is tried again (--retry-seconds, \
            doubling up to 5 minutes). A killed service redoes what .processing/ holds at its next \
            start; SIGTERM and SIGINT finish the packages in hand, then exit 0.

            With --into s3://BUCKET/PREFIX the versions go into an object store: an outage, throttling \
            (503 SlowDown), refused credentials or a network error is retried the same way, never a \
            rejection. Several hosts may serve into one prefix: conditional writes of current.json keep \
            each product's versions in order, and --keep prunes with its state (pins, when a version \
            stopped being current) kept in the bucket, so every host sees it.

            stdout: one JSON line per package handled (outcome accepted, rejected, retrying or \
            skipped); stderr: the same as text. Health: --status-file writes a JSON document \
            (healthy, accepted, rejected, waiting, retrying, lastSuccessAt, lastError, \
            failingSince…) and --metrics-file the same counters in the Prometheus text format \
            (iapkg_serve_packages_total{outcome=…}, iapkg_serve_failing_since_time_seconds…) for \
            node_exporter's textfile collector; both are replaced atomically at every change and \
            every 5 seconds. Under systemd (Type=notify) it sends READY=1 and WATCHDOG=1.

            Example:
              iapkg serve --incoming /srv/incoming --into /srv/content --keep 3 \\
                --status-file /run/iapkg/status.json --metrics-file /run/iapkg/iapkg.prom
              cat /run/iapkg/status.json
              iapkg serve --incoming /srv/incoming --into s3://game-content/iap --keep 3
            """)

    enum Activation: String, ExpressibleByArgument, CaseIterable {
        case newest, never
    }

    @Option(help: "The folder packages are dropped into.")
    var incoming: String

    @OptionGroup var publish: PublishOptions

    @Option(help: "Which versions 'current' moves to: newest (only ever up) or never.")
    var activate: Activation = .newest

    @Flag(help: "Allow installing a version lower than the current one ('current' does not move back).")
    var allowDowngrade = false

    @Option(help: "The product identifier every package must have.")
    var productId: String?

    @Option(help: "Packages handled at once (default: the number of processors).")
    var jobs: Int?

    @Option(help: "Seconds between scans of the folder, the safety net for missed events.")
    var rescanSeconds: Double = 30

    @Option(
        help:
            "A file written in place (not renamed in) is taken once closed and unchanged this many seconds.")
    var settleSeconds: Double = 2

    @Option(help: "Versions of one product arriving within this many seconds of each other are installed lowest first.")
    var gatherSeconds: Double = 0.25

    @Option(help: "Seconds before the first retry of a package whose install failed for a passing reason.")
    var retrySeconds: Double = 5

    @Option(help: "Packages kept in each of accepted/ and rejected/, the oldest removed first (0: keep all).")
    var keepReports: Int = 1000

    @Option(help: "Write the status document (JSON) here, replaced atomically.")
    var statusFile: String?

    @Option(help: "Write the counters in the Prometheus text format here (node_exporter's textfile collector).")
    var metricsFile: String?

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if !(rescanSeconds > 0) { throw ValidationError("--rescan-seconds must be positive") }
        if !(settleSeconds >= 0) { throw ValidationError("--settle-seconds must not be negative") }
        if !(gatherSeconds >= 0) { throw ValidationError("--gather-seconds must not be negative") }
        if !(retrySeconds > 0) { throw ValidationError("--retry-seconds must be positive") }
        if keepReports < 0 { throw ValidationError("--keep-reports must not be negative") }
        if let productId, let problem = ProductIdentifier.problem(with: productId) {
            throw ValidationError("'\(productId)' is not a valid product identifier: \(problem)")
        }
    }

    func execute() throws -> ExitStatus {
        let console = Console.current
        var unpack = UnpackOptions(
            activate: activate == .newest, allowDowngrade: allowDowngrade, productIdentifier: productId)
        publish.apply(to: &unpack)
        unpack.activateLowerVersions = false
        var options = ServeOptions(
            incoming: incoming, root: publish.into, unpack: unpack, jobs: jobs ?? CurrentProcess.processorCount,
            rescanSeconds: rescanSeconds, settleSeconds: settleSeconds)
        options.gatherSeconds = gatherSeconds
        options.retrySeconds = retrySeconds
        options.retryMaxSeconds = max(300, retrySeconds)
        options.keepReports = keepReports == 0 ? nil : keepReports
        let log = ServeLog(console: console)
        let files = try ServeHealthFiles(statusFile: statusFile, metricsFile: metricsFile)
        let stop = try StopSignals()
        let server = try Server(
            options: options, render: ServeReport.render, sink: log.write, health: files.write,
            note: { console.err("iapkg serve: note: " + EntryNameRules.printable($0)) })
        let manager = ServiceManagerNotifier()
        let watching = "watching \(incoming), installing into \(publish.into) (\(options.jobs) jobs)"
        try server.run(
            stop: stop, aliveInterval: manager.watchdogInterval,
            ready: {
                console.err("iapkg serve: " + EntryNameRules.printable(watching))
                manager.notify("READY=1\nSTATUS=" + watching)
            },
            alive: { manager.notify("WATCHDOG=1") })
        manager.notify("STOPPING=1")
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
        var retryIn: Double?
    }

    @Sendable func write(_ event: ServeEvent) {
        let time = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt).format(Date())
        let line = Line(
            time: time, file: event.file, product: event.productIdentifier, version: event.version,
            outcome: event.outcome.rawValue,
            action: event.action?.rawValue, current: event.current, movedTo: event.movedTo,
            seconds: (event.seconds * 1000).rounded() / 1000, findings: event.findings, message: event.message,
            retryIn: event.retryIn)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = (try? encoder.encode(line)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        // Names and messages come from uploaders: control and bidi characters escaped, as validate does.
        var text = "\(EntryNameRules.printable(event.file)): \(event.outcome.rawValue)"
        if let product = event.productIdentifier, let version = event.version {
            text += " (\(product) \(version)" + (event.action.map { ", \($0.rawValue)" } ?? "") + ")"
        }
        if let message = event.message { text += ": " + EntryNameRules.printable(message) }
        if let retryIn = event.retryIn { text += "; next attempt in " + FixedPoint.text(retryIn, places: 1) + " s" }
        text += " [" + FixedPoint.text(event.seconds, places: 2) + " s]"
        lock.withLock {
            console.out(json)
            console.err("iapkg serve: " + text)
        }
    }
}
