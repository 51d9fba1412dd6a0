import IAPRules
import IAPSystem

/// Reads a ContentInfo.plist file from disk: the one place that does (build, validate of a
/// folder, bump, `--newer-than FOLDER`, diff). Packages carry theirs inside the archive, and
/// their readers hand the bytes to `ContentInfo.read` directly.
enum ContentInfoLoader {
    /// What one ContentInfo.plist file holds.
    struct Loaded {
        /// What it says, if it could be read.
        var info: ContentInfo?
        /// Its bytes (empty when it is over the size cap and was not read).
        var bytes: [UInt8]
        /// What is wrong with it.
        var findings: [Finding]
        /// Its permission bits.
        var permissions: UInt32
    }

    /// Reads the regular file at `path` (never through a symlink unless `followingLinks`); one over
    /// `ContentInfo.maxBytes` is not read, only reported. `entry` names the file in findings.
    static func load(_ path: String, entry: String = "ContentInfo.plist", followingLinks: Bool = false)
        throws(IAPKitError) -> Loaded
    {
        do {
            let file = try followingLinks ? FileDescriptor.openForReading(path) : FileSystem.openNoFollow(path)
            let status = try file.status()
            guard status.isRegularFile else {
                throw SystemError("read", path: path, code: SystemError.Code.isDirectory)
            }
            guard status.size <= UInt64(ContentInfo.maxBytes) else {
                return Loaded(
                    info: nil, bytes: [], findings: [ContentInfo.sizeFinding(status.size, entry: entry)],
                    permissions: status.permissions)
            }
            let bytes = try file.read(count: Int(status.size) + 1, at: 0)
            let (info, findings) = ContentInfo.read(bytes, entry: entry)
            return Loaded(info: info, bytes: bytes, findings: findings, permissions: status.permissions)
        } catch let error as SystemError {
            throw .system(error)
        } catch {
            throw .system(SystemError("read", path: path, code: SystemError.Code.io))
        }
    }
}
