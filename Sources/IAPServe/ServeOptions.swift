import IAPKit
import IAPSystem

/// How `Server` runs: where packages arrive, where they are installed, and how.
package struct ServeOptions: Sendable {
    /// The folder packages are dropped into.
    package var incoming: String
    /// The version store's root.
    package var root: String
    /// How each package is installed (the same engine as `unpack`).
    package var unpack: UnpackOptions
    /// Packages handled at once.
    package var jobs: Int
    /// Seconds between scans of the folder (the safety net for missed events).
    package var rescanSeconds: Double
    /// A file not renamed in is taken once unchanged this long (and no writer holds it open), and
    /// a file still open for writing is looked at again this often.
    package var settleSeconds: Double
    /// A product's packages wait until none of it arrived for this long, so that versions
    /// dropped together in any order are installed lowest first.
    package var gatherSeconds: Double = 0.25
    /// The first wait after an attempt failed for a passing reason; each failure doubles it, up
    /// to `retryMaxSeconds`.
    package var retrySeconds: Double = 5
    /// The longest wait between attempts.
    package var retryMaxSeconds: Double = 300
    /// Packages kept in each of `accepted/` and `rejected/` (nil: all).
    package var keepReports: Int? = 1000

    package init(
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
package struct ServeEvent: Sendable {
    /// `accepted` (installed or already installed), `rejected`, `retrying` (an attempt failed for
    /// a passing reason; the package waits in `.processing/`) or `skipped` (an entry of the drop
    /// folder that is not taken, said once).
    package enum Outcome: String, Sendable {
        case accepted, rejected, retrying, skipped
    }

    /// The name it arrived under.
    package var file: String
    package var productIdentifier: String?
    package var version: String?
    package var outcome: Outcome
    /// What unpacking did, when it was accepted.
    package var action: UnpackReport.Action?
    /// Where the package is now (in accepted/ or rejected/).
    package var movedTo: String
    /// The version `current` points to afterwards.
    package var current: String?
    /// Errors and warnings found.
    package var findings: Int
    /// Why it was rejected, is retried or skipped.
    package var message: String?
    package var seconds: Double
    /// For `retrying`: seconds until the next attempt.
    package var retryIn: Double? = nil
}

/// What the service hands a report renderer: the validation report (nil if the package could not
/// be read far enough) and the reason it was refused, if it was.
package struct ServeReportInput: Sendable {
    /// The path the package arrived under.
    package var path: String
    package var validation: ValidationReport?
    /// Why installation failed after (or instead of) validation.
    package var failure: String?
    /// True when the failure is the tool's (I/O, a full disk), not the package's.
    package var unreadable: Bool
}
