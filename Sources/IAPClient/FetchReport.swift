/// What one download did (`iapkg fetch --json` prints it).
public struct FetchReport: Codable, Sendable, Equatable {
    /// The document's schema version (1).
    public var schemaVersion = 1
    /// The product.
    public var productIdentifier: String
    /// The version now installed.
    public var version: String
    /// The version installed before (nil on a first install).
    public var previousVersion: String?
    /// `installed` (a new version is in place) or `up-to-date` (nothing to do).
    public var action: String
    /// Files of the version.
    public var files: Int
    /// Files received over the network this run (a file listed twice with one digest counts once).
    public var filesFetched: Int
    /// Bytes received over the network this run (after a resume: only the rest).
    public var bytesFetched: UInt64
    /// Bytes of partly fetched files found from an earlier run and kept.
    public var bytesResumed: UInt64
    /// Files taken from the installed version or an earlier run, unchanged and verified.
    public var filesReused: Int
    /// Their bytes.
    public var bytesReused: UInt64
    /// Symlinks recreated from the manifest.
    public var symlinks: Int
    /// The folder the app reads: `FOLDER/current/Contents`.
    public var contentsPath: String
    /// Wall-clock seconds.
    public var seconds: Double
}
