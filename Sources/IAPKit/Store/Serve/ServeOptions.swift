import IAPCore

/// How `Server` runs: where packages arrive, where they are installed, and how.
public struct ServeOptions: Sendable {
    /// The folder packages are dropped into.
    public var incoming: String
    /// The version store's root.
    public var root: String
    /// How each package is installed (the same engine as `unpack`).
    public var unpack: UnpackOptions
    /// Packages handled at once.
    public var jobs: Int
    /// Seconds between scans of the folder (the safety net for missed events).
    public var rescanSeconds: Double
    /// How often a file whose writer still holds it open is looked at again; where no read lease
    /// can be taken (no `CAP_LEASE`, a file system without leases), a file is taken once unchanged
    /// this long.
    public var settleSeconds: Double
    /// A product's packages wait until none of it arrived for this long, so that versions
    /// dropped together in any order are installed lowest first.
    public var gatherSeconds: Double = 0.25
    /// The first wait after an attempt failed for a passing reason; each failure doubles it, up
    /// to `retryMaxSeconds`.
    public var retrySeconds: Double = 5
    /// The longest wait between attempts.
    public var retryMaxSeconds: Double = 300
    /// Packages kept in each of `accepted/` and `rejected/` (nil: all).
    public var keepReports: Int? = 1000

    public init(
        incoming: String, root: String, unpack: UnpackOptions, jobs: Int, rescanSeconds: Double = 30,
        settleSeconds: Double = 2
    ) {
        self.incoming = incoming
        self.root = root
        self.unpack = unpack
        self.jobs = max(1, jobs)
        self.rescanSeconds = max(0.1, rescanSeconds)
        self.settleSeconds = max(0, settleSeconds)
    }

    /// The wait before attempt `attempts + 1`.
    func backoff(after attempts: Int) -> Double {
        min(retryMaxSeconds, retrySeconds * Double(1 << min(max(attempts - 1, 0), 20)))
    }
}

/// One package handled by the service.
public struct ServeEvent: Sendable {
    /// `accepted` (installed or already installed), `rejected`, `retrying` (an attempt failed for
    /// a passing reason; the package waits in `.processing/`) or `skipped` (an entry of the drop
    /// folder that is not taken, said once).
    public enum Outcome: String, Sendable {
        case accepted, rejected, retrying, skipped
    }

    /// The name it arrived under.
    public var file: String
    public var productIdentifier: String?
    public var version: String?
    public var outcome: Outcome
    /// What unpacking did, when it was accepted.
    public var action: UnpackReport.Action?
    /// Where the package is now (in accepted/ or rejected/).
    public var movedTo: String
    /// The version `current` points to afterwards.
    public var current: String?
    /// Errors and warnings found.
    public var findings: Int
    /// Why it was rejected, is retried or skipped.
    public var message: String?
    public var seconds: Double
    /// For `retrying`: seconds until the next attempt.
    public var retryIn: Double? = nil
}

/// What the service hands a report renderer: the validation report (nil if the package could not
/// be read far enough) and the reason it was refused, if it was.
public struct ServeReportInput: Sendable {
    /// The path the package arrived under.
    public var path: String
    public var validation: ValidationReport?
    /// Why installation failed after (or instead of) validation.
    public var failure: String?
    /// True when the failure is the tool's (I/O, a full disk), not the package's.
    public var unreadable: Bool
}
