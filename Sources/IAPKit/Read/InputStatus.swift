import IAPSystem

extension FileStatus {
    /// The status of the input `path` (a final symlink followed): a missing or unreadable input is
    /// the tool's failure (exit 2), never a finding.
    static func ofInput(_ path: String) throws(IAPKitError) -> FileStatus {
        do { return try FileStatus.of(path) } catch { throw .system(error) }
    }
}
