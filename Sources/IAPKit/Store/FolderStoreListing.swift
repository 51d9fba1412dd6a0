import IAPSystem

/// `list` over the folder store.
enum FolderStoreListing {
    /// Every product and version in the store at `root`, lowest version first. Takes no lock:
    /// versions appear and disappear only by rename, so nothing half-written is ever seen.
    static func list(_ root: String) throws -> StoreListing {
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
