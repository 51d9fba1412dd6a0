import IAPSystem

/// The folder store (`VersionStore`) behind `VersionStorage`: products are locked folders,
/// a version appears by one rename of its staging folder, `current` is a link replaced by rename.
package struct FolderVersionStorage: VersionStorage {
    package let location: String

    /// The store at `path` (created on the first `openProduct(_:create: true)`).
    package init(_ path: String) { location = path }

    package func listing() throws -> StoreListing { try FolderStoreListing.list(location) }

    package func openProduct(_ productIdentifier: String, create: Bool) throws -> any StoredProduct {
        let store = try VersionStore.open(location, create: create)
        guard create || store.root.status(productIdentifier) != nil else {
            throw IAPKitError.refused("\(location) holds no product \(productIdentifier)")
        }
        return try store.lockProduct(productIdentifier, create: create)
    }
}

extension VersionStore.LockedProduct: StoredProduct {
    package func makeStaging(bytes: UInt64, entries: Int) throws -> VersionStaging {
        let needed = bytes &+ UInt64(entries) * 4096
        let available = try folder.availableBytes()
        guard needed <= available else {
            throw IAPKitError.system(
                SystemError(
                    "unpack (needs about \(needed) bytes, \(available) free) into", path: folder.path,
                    code: SystemError.Code.noSpace))
        }
        let name = VersionStore.stagingPrefix + VersionStore.randomSuffix()
        try folder.makeDirectory(name, mode: 0o700)
        do {
            return VersionStaging(folder: try folder.openDirectory(name), name: name, in: folder)
        } catch {
            try? folder.removeTree(name)
            throw error
        }
    }

    package func commit(_ staging: VersionStaging, as version: String, force: Bool, refusal: String) throws
        -> UnpackReport.Action
    {
        defer { try? folder.removeTree(staging.name) }
        try FileSystem.setPermissions(staging.folder.path, 0o755)
        var action = UnpackReport.Action.installed
        if let existing = folder.status(version) {
            guard existing.isDirectory else {
                throw IAPKitError.refused("\(folder.child(version)) exists and is not a version folder; remove it")
            }
            if try ContentManifest.of(try folder.openDirectory(version)) == ContentManifest.of(staging.folder) {
                return .alreadyInstalled
            }
            guard force else {
                throw IAPKitError.refused(refusal)
            }
            try folder.exchange(staging.name, version)
            try folder.sync()
            action = .replaced
        } else {
            try folder.rename(staging.name, to: version)
        }
        try folder.sync()
        try reconcilePointer()  // --force may have replaced the current version's manifest
        return action
    }

    package func activate(
        _ version: String, pinning: Bool,
        if allowed: (_ current: ContentVersion?, _ retention: VersionRetention) throws -> Bool
    ) throws -> Bool {
        guard try allowed(current(), retention()) else { return current()?.text == version }
        try activate(version, pinning: pinning)
        return true
    }

    package func location(of version: String) -> String { folder.child(version) }
}
