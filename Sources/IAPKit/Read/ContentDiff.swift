import IAPCore

/// What changes between two versions of content: files added, removed and changed (by the SHA-256
/// of their decoded bytes), and the bytes an app must download to update.
public struct ContentDiff: Codable, Sendable {
    /// One file (or symlink) that differs.
    public struct Change: Codable, Sendable, Equatable {
        public var path: String
        /// `file` or `symlink`.
        public var kind: String
        public var oldSize: UInt64?
        public var newSize: UInt64?
    }

    /// One side of the comparison.
    public struct Side: Codable, Sendable {
        public var path: String
        public var productIdentifier: String?
        public var version: String?
        public var files: Int
        public var bytes: UInt64
    }

    public var schemaVersion = 1
    public var old: Side
    public var new: Side
    public var added: [Change]
    public var removed: [Change]
    public var changed: [Change]
    public var unchanged: Int
    /// Bytes of the files added or changed: what an app fetching files one by one downloads.
    public var downloadBytes: UInt64

    /// Compares `old` and `new`: packages (validated and decoded as `unpack` does, into a private
    /// temporary store that is removed afterwards), content folders or installed version folders.
    public static func compare(_ old: String, _ new: String) throws(IAPKitError) -> ContentDiff {
        let before = try ContentSnapshot.read(old)
        let after = try ContentSnapshot.read(new)
        var oldItems: [String: ContentManifest.Item] = [:]
        for item in before.items { oldItems[item.path] = item }
        var added: [Change] = []
        var changed: [Change] = []
        var unchanged = 0
        var newPaths = Set<String>()
        for item in after.items {
            newPaths.insert(item.path)
            if let previous = oldItems[item.path] {
                if previous.kind == item.kind && previous.value == item.value {
                    unchanged += 1
                } else {
                    changed.append(Change(path: item.path, kind: item.kind, oldSize: previous.size, newSize: item.size))
                }
            } else {
                added.append(Change(path: item.path, kind: item.kind, oldSize: nil, newSize: item.size))
            }
        }
        let removed = before.items.filter { !newPaths.contains($0.path) }.map {
            Change(path: $0.path, kind: $0.kind, oldSize: $0.size, newSize: nil)
        }
        let download = (added + changed).reduce(UInt64(0)) { $0 &+ ($1.newSize ?? 0) }
        return ContentDiff(
            old: before.side(old), new: after.side(new), added: added, removed: removed, changed: changed,
            unchanged: unchanged, downloadBytes: download)
    }
}

/// Files and symlinks of one version (folders left out), sorted by path.
struct ContentSnapshot {
    var items: [ContentManifest.Item]
    var productIdentifier: String?
    var version: String?

    func side(_ path: String) -> ContentDiff.Side {
        let files = items.filter { $0.kind == "file" }
        return ContentDiff.Side(
            path: path, productIdentifier: productIdentifier, version: version, files: files.count,
            bytes: files.reduce(UInt64(0)) { $0 &+ $1.size })
    }

    static func read(_ path: String) throws(IAPKitError) -> ContentSnapshot {
        return try translatingErrors {
            if try FileStatus.of(path).isDirectory { return try folder(path) }
            let scratch = try TemporaryFolder()
            let report = try Unpacker.unpack(path, into: scratch.path, options: UnpackOptions(activate: false))
            var snapshot = try folder(report.folder, junk: false)
            snapshot.productIdentifier = report.productIdentifier
            snapshot.version = report.version
            return snapshot
        }
    }

    /// A content folder or an installed version folder (its manifest.json and, with `junk`,
    /// clutter such as .DS_Store left out, as `build` leaves them out).
    private static func folder(_ path: String, junk: Bool = true) throws -> ContentSnapshot {
        var items = try ContentManifest.of(try DirectoryHandle.open(path)).items.filter { $0.kind != "directory" }
        if junk {
            let excluded = try ContentFolderScanner.scan(path, excludeJunk: true).excluded
            items.removeAll { item in excluded.contains { item.path == $0 || item.path.hasPrefix($0 + "/") } }
        }
        items.sort { Array($0.path.utf8).lexicographicallyPrecedes(Array($1.path.utf8)) }
        var snapshot = ContentSnapshot(items: items)
        if let info = try? ContentInfoLoader.load(path + "/ContentInfo.plist").info {
            snapshot.productIdentifier = info.productIdentifier
            snapshot.version = info.contentVersion.text
        }
        return snapshot
    }
}
