import IAPDelivery
import IAPSystem

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
    /// temporary store that is removed afterwards), content folders, installed version folders, or
    /// versions in an object store (`s3://BUCKET/PREFIX/<product>/<version>`, or `…/<product>` for
    /// its current version), read from their manifests without their content.
    public static func compare(_ old: String, _ new: String) throws(IAPKitError) -> ContentDiff {
        let before = try ContentSnapshot.read(old)
        let after = try ContentSnapshot.read(new)
        let plan = UpdatePlan(from: before.items.map(\.deliveryItem), to: after.items.map(\.deliveryItem))
        func change(_ old: DeliveryItem?, _ new: DeliveryItem?) -> Change {
            Change(
                path: (new ?? old)?.path ?? "", kind: (new ?? old)?.kind ?? "", oldSize: old?.size, newSize: new?.size)
        }
        let added = plan.added.map { change(nil, $0) }
        let changed = plan.changed.map { change($0.old, $0.new) }
        let removed = plan.removed.map { change($0, nil) }
        let unchanged = plan.unchanged.count
        let download = plan.downloadBytes
        return ContentDiff(
            old: before.side(old), new: after.side(new), added: added, removed: removed, changed: changed,
            unchanged: unchanged, downloadBytes: download)
    }
}

extension ContentManifest.Item {
    /// The item as the update plan compares it.
    var deliveryItem: DeliveryItem { DeliveryItem(path: path, kind: kind, value: value, size: size) }
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
            if let address = try StoreAddress.resolve(path) { return try stored(address) }
            if try FileStatus.of(path).isDirectory { return try folder(path) }
            let scratch = try TemporaryFolder()
            let report = try Unpacker.unpack(path, into: scratch.path, options: UnpackOptions(activate: false))
            var snapshot = try folder(report.folder, junk: false)
            snapshot.productIdentifier = report.productIdentifier
            snapshot.version = report.version
            return snapshot
        }
    }

    /// A version in a store, from its manifest (files by SHA-256 and size, symlinks by target).
    private static func stored(_ address: StoreAddress) throws -> ContentSnapshot {
        let (product, version) = try address.singleVersion()
        let manifest = try product.manifest(of: version)
        var items = manifest.files.map {
            ContentManifest.Item(path: $0.path, kind: "file", value: $0.sha256, size: $0.size)
        }
        items += manifest.symlinks.map { ContentManifest.Item(path: $0.path, kind: "symlink", value: $0.target) }
        items.sort { Array($0.path.utf8).lexicographicallyPrecedes(Array($1.path.utf8)) }
        return ContentSnapshot(items: items, productIdentifier: manifest.productIdentifier, version: manifest.version)
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
