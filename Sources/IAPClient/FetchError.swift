#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Why a download failed. ``isContentProblem`` tells a server's content that failed a check (do
/// not retry: publish again) from a failure to do the job (network, server, disk: retry later).
public enum FetchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What the server published is refused (a manifest with an unsafe path, a file whose bytes are
    /// not the manifest's): nothing is installed.
    case refused(_ what: String, _ why: String)
    /// The server answered `status` for `url` (after the retries a transient status gets).
    case http(_ url: String, _ status: Int)
    /// The server could not be reached or the connection failed (after the retries).
    case network(_ url: String, _ message: String)
    /// The local content folder could not be read or written.
    case local(_ path: String, _ message: String)
    /// Another download is filling the same content folder.
    case busy(_ folder: String)
    /// The download was cancelled; what was verified stays for the next run.
    case cancelled

    /// True when the server's content failed a check, false when the job could not be done.
    public var isContentProblem: Bool {
        if case .refused = self { return true }
        return false
    }

    /// What went wrong and what to do.
    public var description: String {
        switch self {
        case .refused(let what, let why):
            return "\(what): refused: \(why); nothing was installed"
        case .http(let url, 401), .http(let url, 403):
            return "\(url): the server refused access (HTTP 401/403); give a valid download token (--token)"
        case .http(let url, 404):
            return "\(url): not found (HTTP 404); check the base URL and the product identifier"
        case .http(let url, let status):
            return "\(url): the server answered HTTP \(status); try again later"
        case .network(let url, let message):
            return "\(url): \(message); check the server and the network, then run again to resume"
        case .local(let path, let message):
            return "\(path): \(message)"
        case .busy(let folder):
            return "\(folder): another download is filling this folder; wait for it to finish"
        case .cancelled:
            return "the download was cancelled; run again to resume"
        }
    }
}
