import IAPRules
import IAPSystem

/// Why a command could not finish, and which exit status that means.
public enum IAPKitError: Error, Sendable, CustomStringConvertible {
    /// The input breaks the rules (exit 1); the findings say how.
    case invalid(path: String, findings: [Finding])
    /// A refusal that is not a rule finding: output exists, folder not empty, version not newer… (exit 1).
    case refused(String)
    /// The tool could not do its job: I/O, missing file, disk full (exit 2).
    case system(SystemError)
    /// The tool could not do its job, for a reason given in words (exit 2).
    case failed(String)

    /// The documented exit status: 1 the input is invalid or a check failed, 2 the tool could not do its job.
    public var exitStatus: Int32 {
        switch self {
        case .invalid, .refused: 1
        case .system, .failed: 2
        }
    }

    public var description: String {
        switch self {
        case .invalid(let path, let findings):
            let errors = findings.filter { $0.severity == .error }.count
            return "\(path) is not valid (\(errors) error\(errors == 1 ? "" : "s"), listed above)"
        case .refused(let message), .failed(let message):
            return message
        case .system(let error):
            return error.isOutOfSpace ? "\(error) — free some space and try again" : error.description
        }
    }
}
