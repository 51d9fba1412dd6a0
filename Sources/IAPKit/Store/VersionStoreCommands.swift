import IAPSystem

/// What a version store holds, for `iapkg list`.
public struct StoreListing: Codable, Sendable {
    public struct Version: Codable, Sendable {
        public var version: String
        public var files: Int
        public var bytes: UInt64
        public var current: Bool
    }

    public struct Product: Codable, Sendable {
        public var productIdentifier: String
        public var current: String?
        /// The version an operator's `activate` pinned (a rollback `unpack` and `serve` leave current).
        public var pinned: String?
        public var versions: [Version]
    }

    public var schemaVersion = 1
    public var root: String
    public var products: [Product]
}

/// `list` and `activate` over a version store.
public enum VersionStoreCommands {
    /// Every product and version in the store at `root`, lowest version first. Takes no lock:
    /// versions appear and disappear only by rename, so nothing half-written is ever seen.
    public static func list(_ root: String) throws(IAPKitError) -> StoreListing {
        return try translatingErrors {
            let store = try VersionStore.open(root, create: false)
            var products: [StoreListing.Product] = []
            for name in try store.products() {
                let folder = try store.root.openDirectory(name)
                let current = folder.readSymlink(VersionStore.currentName)
                let versions = try folder.names().compactMap { entry -> ContentVersion? in
                    guard !entry.hasPrefix("."), entry != VersionStore.currentName,
                        folder.status(entry)?.isDirectory == true
                    else { return nil }
                    return ContentVersion(entry)
                }.sorted()
                var listed: [StoreListing.Version] = []
                for version in versions {
                    guard let (files, bytes) = try measureUnlessRemoved(folder, version.text) else { continue }
                    listed.append(
                        .init(version: version.text, files: files, bytes: bytes, current: version.text == current))
                }
                let pinned = VersionRetention.read(in: folder).pinned.flatMap { $0 == current ? $0 : nil }
                products.append(.init(productIdentifier: name, current: current, pinned: pinned, versions: listed))
            }
            return StoreListing(root: root, products: products)
        }
    }

    /// Points `current` of `productIdentifier` at `version` (rolling back or forward; any spelling
    /// that compares equal names the installed version) and pins it when it is below the newest
    /// installed one. Returns the previous one.
    @discardableResult
    public static func activate(_ root: String, productIdentifier: String, version: String) throws(IAPKitError)
        -> String?
    {
        guard ProductIdentifier.isValid(productIdentifier) else {
            throw .refused("'\(productIdentifier)' is not a valid product identifier")
        }
        guard let wanted = ContentVersion(version) else { throw .refused("'\(version)' is not a version") }
        return try translatingErrors {
            let store = try VersionStore.open(root, create: false)
            guard store.root.status(productIdentifier) != nil else {
                throw IAPKitError.refused("\(root) holds no product \(productIdentifier)")
            }
            let product = try store.lockProduct(productIdentifier, create: false)
            guard let name = try product.installedName(of: wanted) else {
                let have = try product.versions().map(\.text).joined(separator: ", ")
                throw IAPKitError.refused(
                    "\(productIdentifier) has no version \(version) in \(root) (installed: \(have.isEmpty ? "none" : have))"
                )
            }
            let previous = product.folder.readSymlink(VersionStore.currentName)
            try product.activate(name, pinning: true)  // a rollback is pinned against automatic moves
            return previous
        }
    }

    /// Files and bytes of version `name`, or nil when it was removed while being measured (`--keep`
    /// renames it out of sight, then deletes it, so its subfolders vanish under the walk: ENOENT).
    /// Measured again once if it is still there (`--force` exchanged it for new content meanwhile).
    private static func measureUnlessRemoved(_ product: DirectoryHandle, _ name: String) throws -> (Int, UInt64)? {
        for _ in 0..<2 {
            do {
                return try measure(try product.openDirectory(name))
            } catch let error as SystemError where error.code == SystemError.Code.noSuchFile {
                continue
            }
        }
        return nil
    }

    /// Files and bytes of content below `folder` (the store's manifest and hidden names at the top left out).
    private static func measure(_ folder: DirectoryHandle, top: Bool = true) throws -> (Int, UInt64) {
        var files = 0
        var bytes: UInt64 = 0
        for name in try folder.names() where !(top && (name == DeliveryManifest.fileName || name.hasPrefix("."))) {
            guard let status = folder.status(name) else { continue }
            if status.isDirectory {
                let (f, b) = try measure(try folder.openDirectory(name), top: false)
                files += f
                bytes += b
            } else {
                files += 1
                if status.isRegularFile { bytes += status.size }
            }
        }
        return (files, bytes)
    }
}
