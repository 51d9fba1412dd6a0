#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Keeps a local copy of one product's published content up to date, as `SKDownload` did for
/// Apple-hosted content: reads the server's `current.json` and that version's `manifest.json`,
/// fetches only the files the installed version lacks, verifies each, and installs the version
/// atomically. The app reads ``contentsURL`` (`FOLDER/current/Contents`).
public struct ContentUpdater: Sendable {
    /// The server's base URL: the product's documents are at `BASE/<product>/current.json`.
    public var server: URL
    /// The product identifier.
    public var productIdentifier: String
    /// The local content folder (created if missing).
    public var folder: URL
    /// A download token, sent as `Authorization: Bearer <token>`.
    public var token: String?
    /// Retries of transient failures (network errors, 408, 429, 5xx).
    public var retry = RetryPolicy()
    /// Files fetched at once.
    public var parallelDownloads = 8
    /// Seconds a request may wait for data before it counts as failed.
    public var timeout: Double = 30
    /// Largest total a version may hold (2 GiB by default).
    public var maximumTotalBytes: UInt64 = 2_147_483_648

    /// An updater for `productIdentifier` served under `server`, kept in `folder`.
    public init(server: URL, productIdentifier: String, folder: URL, token: String? = nil) {
        self.server = server
        self.productIdentifier = productIdentifier
        self.folder = folder
        self.token = token
    }

    /// The folder the app reads the installed version's files from (`FOLDER/current/Contents`).
    public var contentsURL: URL {
        folder.appendingPathComponent("current").appendingPathComponent("Contents")
    }

    /// The installed version, if any.
    public var installedVersion: String? {
        ContentFolder(root: folder.path).installed()?.version
    }

    /// The server's current version when it is not the installed one (nil when up to date).
    public func checkForUpdate() async throws(FetchError) -> CurrentPointer? {
        let http = HTTPExchange(server: server, token: token, timeout: timeout, connections: 1)
        let transfers = Transfers(
            http: http, gate: PauseGate(interrupt: { http.cancelAll() }), meter: ProgressMeter(), policy: retry)
        let pointer: CurrentPointer
        do {
            pointer = try await readPointer(transfers)
        } catch {
            await http.close()
            throw error
        }
        await http.close()
        let installed = ContentFolder(root: folder.path).installed()
        if installed?.version == pointer.version && installed?.manifestSHA256 == pointer.manifestSHA256 { return nil }
        return pointer
    }

    /// Starts bringing the folder to the server's current version; the returned download reports
    /// progress and can be paused, resumed and cancelled.
    public func download() -> ContentDownload {
        ContentDownload(self)
    }

    /// Brings the folder to the server's current version and returns what was done.
    public func update() async throws(FetchError) -> FetchReport {
        try await download().result()
    }

    /// The product's URL plus `path`'s components, each percent-encoded.
    func url(_ path: String...) -> URL {
        var url = server.appendingPathComponent(productIdentifier)
        for part in path.flatMap({ $0.split(separator: "/") }) { url.appendPathComponent(String(part)) }
        return url
    }

    /// `current.json`, checked.
    func readPointer(_ transfers: Transfers) async throws(FetchError) -> CurrentPointer {
        let data = try await transfers.document(url("current.json"), limit: DeliveryDocuments.pointerLimit)
        return try DeliveryDocuments.pointer(data, product: productIdentifier)
    }
}
