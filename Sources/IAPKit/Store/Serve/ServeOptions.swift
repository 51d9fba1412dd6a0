import IAPCore

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
    /// A package found by a scan is taken only once it is this many seconds old.
    package var settleSeconds: Double

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
}

/// One package handled by the service.
package struct ServeEvent: Sendable {
    /// `accepted` (installed or already installed) or `rejected`.
    package enum Outcome: String, Sendable {
        case accepted, rejected
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
    /// Why it was rejected.
    package var message: String?
    package var seconds: Double
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
