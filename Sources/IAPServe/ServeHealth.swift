import IAPKit
import IAPSystem

/// How the service is doing, for a monitor: counts since start, the last success, the last error
/// and since when packages have been failing (nil while the last attempt went through). Times
/// are seconds since 1970.
package struct ServeHealth: Sendable, Equatable {
    /// When the service started.
    package var startedAt: Int64
    /// When this snapshot was taken (a heartbeat: it moves even when nothing arrives).
    package var updatedAt: Int64
    /// Packages installed (or found already installed) and moved to `accepted/`.
    package var accepted = 0
    /// Packages refused and moved to `rejected/`.
    package var rejected = 0
    /// Attempts that failed for a passing reason (a full disk, a read-only ROOT, an I/O error).
    package var failedAttempts = 0
    /// Packages claimed and not yet committed (in `.processing/`).
    package var waiting = 0
    /// Of those, packages waiting out a backoff after a failed attempt.
    package var retrying = 0
    /// Files in the drop folder whose writer still holds them open.
    package var uploading = 0
    /// The last package committed to `accepted/` or `rejected/`.
    package var lastSuccessAt: Int64?
    /// The last failure: when, the file, and the message.
    package var lastErrorAt: Int64?
    package var lastErrorFile: String?
    package var lastError: String?
    /// The first failure since the last package went through (nil: not failing).
    package var failingSince: Int64?

    /// A service that has just started.
    package init(startedAt: Int64) {
        self.startedAt = startedAt
        updatedAt = startedAt
    }

    mutating func recordCommit(accepted isAccepted: Bool, at time: Int64) {
        if isAccepted { accepted += 1 } else { rejected += 1 }
        lastSuccessAt = time
        failingSince = nil
    }

    mutating func recordFailure(file: String?, message: String, at time: Int64) {
        failedAttempts += 1
        lastErrorAt = time
        lastErrorFile = file
        lastError = message
        if failingSince == nil { failingSince = time }
    }
}
