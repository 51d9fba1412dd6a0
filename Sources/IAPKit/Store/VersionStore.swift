import IAPSystem

/// A server's folder of unpacked content: `ROOT/<product>/<version>/` and `ROOT/<product>/current`,
/// a symlink to the active version that only ever changes by an atomic rename (PackageFormat.md §7).
/// Hidden names (`.lock`, `.staging-*`, `.trash-*`) are the store's own and never listed.
package struct VersionStore {
    /// The name of the pointer to the active version.
    package static let currentName = "current"
    static let lockName = ".lock"
    static let stagingPrefix = ".staging-"
    static let trashPrefix = ".trash-"

    package let root: DirectoryHandle

    /// Opens the store at `path`, creating the folder if it does not exist.
    package static func open(_ path: String, create: Bool) throws -> VersionStore {
        if create && FileSystem.linkStatus(path) == nil {
            try FileSystem.makeDirectory(path, mode: 0o755, existingIsFine: true)
        }
        return VersionStore(root: try DirectoryHandle.open(path))
    }

    /// A product's folder, held under its exclusive lock until the value goes away.
    /// In-process the same product is also held by one thread at a time (ProductLocks), before
    /// the `flock` that keeps other processes out.
    package final class LockedProduct {
        package let productIdentifier: String
        package let folder: DirectoryHandle
        let lock: FileDescriptor
        private let key: String

        init(productIdentifier: String, folder: DirectoryHandle) throws {
            self.productIdentifier = productIdentifier
            self.folder = folder
            key = folder.path
            ProductLocks.shared.acquire(key)
            do {
                lock = try folder.openLockFile(VersionStore.lockName)
                try DirectoryHandle.lockExclusively(lock)
            } catch {
                ProductLocks.shared.release(key)
                throw error
            }
        }

        deinit { ProductLocks.shared.release(key) }

        /// Versions installed, lowest first (hidden and unparsable names skipped).
        package func versions() throws -> [ContentVersion] {
            try folder.names().compactMap { name in
                guard !name.hasPrefix("."), name != VersionStore.currentName,
                    folder.status(name)?.isDirectory == true
                else { return nil }
                return ContentVersion(name)
            }.sorted()
        }

        /// The version `current` points to, if any.
        package func current() -> ContentVersion? {
            folder.readSymlink(VersionStore.currentName).flatMap(ContentVersion.init)
        }

        /// Points `current` at `version` atomically: a new link, renamed over the old one, then
        /// `current.json` replaced the same way (the link is the truth; `reconcilePointer` repairs
        /// a `current.json` that a kill between the two renames left behind).
        /// `pinning` (an operator's `activate`): the version is pinned when it is below the newest
        /// installed one (a rollback holds until an operator activates again or a version newer
        /// than every installed one arrives), and the pin is dropped otherwise. The version that
        /// stops being current is remembered with the time, for `--keep-for`.
        package func activate(_ version: String, pinning: Bool = false) throws {
            _ = try DeliveryManifest.ensure(productIdentifier: productIdentifier, version: version, in: folder)
            let before = retention()
            let chosen = ContentVersion(version)
            let newer = try pinning && chosen.map { chosen in try versions().contains { $0 > chosen } } ?? false
            let state = before.activating(
                version, previous: folder.readSymlink(VersionStore.currentName), pinning: pinning,
                newerInstalled: newer, now: WallClock.now().seconds)
            if state != before { try state.write(in: folder) }
            if folder.readSymlink(VersionStore.currentName) == version {
                try reconcilePointer()
                return
            }
            let temporary = ".current-" + VersionStore.randomSuffix()
            try folder.makeSymlink(temporary, target: version)
            do {
                try folder.rename(temporary, to: VersionStore.currentName)
            } catch {
                try? folder.removeTree(temporary)
                throw error
            }
            try folder.sync()
            try reconcilePointer()
        }

        /// Makes `current.json` say what the `current` link says (written if missing or different;
        /// removed if there is no link).
        package func reconcilePointer() throws {
            guard let version = folder.readSymlink(VersionStore.currentName), folder.status(version) != nil else {
                if folder.status(DeliveryManifest.pointerName) != nil {
                    try folder.removeTree(DeliveryManifest.pointerName)
                }
                return
            }
            let sha = try DeliveryManifest.ensure(productIdentifier: productIdentifier, version: version, in: folder)
            let wanted = DeliveryManifest.pointer(
                productIdentifier: productIdentifier, version: version, manifestSHA256: sha)
            if (try? folder.readFile(DeliveryManifest.pointerName, limit: 4096)) != wanted {
                try folder.writeAtomically(DeliveryManifest.pointerName, wanted)
            }
        }

        /// Removes a whole version: renamed out of sight first, then deleted.
        package func remove(_ version: String) throws {
            let trash = VersionStore.trashPrefix + VersionStore.randomSuffix()
            try folder.rename(version, to: trash)
            try folder.sync()
            try folder.removeTree(trash)
        }

        /// Deletes staging and trash folders that a killed run left behind (we hold the lock).
        package func removeStaleWork() throws {
            for name in try folder.names()
            where name.hasPrefix(VersionStore.stagingPrefix) || name.hasPrefix(VersionStore.trashPrefix)
                || name.hasPrefix(".current-")
                || name.hasPrefix(".\(DeliveryManifest.pointerName).tmp-")
                || name.hasPrefix(".\(VersionRetention.fileName).tmp-")
            {
                try folder.removeTree(name)
            }
            try reconcilePointer()
        }
    }

    /// Opens (creating it if `create`) and locks the folder of `productIdentifier`.
    package func lockProduct(_ productIdentifier: String, create: Bool) throws -> LockedProduct {
        let folder =
            create
            ? try root.makeOrOpenDirectory(productIdentifier, mode: 0o755) : try root.openDirectory(productIdentifier)
        return try LockedProduct(productIdentifier: productIdentifier, folder: folder)
    }

    /// Products in the store: folders named like product identifiers that hold a lock, a `current`
    /// link or a version (other folders someone put there are not products).
    package func products() throws -> [String] {
        try root.names().filter { name in
            guard ProductIdentifier.isValid(name), root.status(name)?.isDirectory == true,
                let folder = try? root.openDirectory(name), let names = try? folder.names()
            else { return false }
            return names.contains {
                $0 == VersionStore.lockName || $0 == VersionStore.currentName || ContentVersion($0) != nil
            }
        }
    }

    static func randomSuffix() -> String {
        String(UInt64.random(in: 0...UInt64.max), radix: 36)
    }
}

/// Which products threads of this process hold: one thread per product at a time (`flock` alone
/// would also serialise them, but a waiting thread should wait here, not in the kernel).
/// `@unchecked Sendable`: `held` is read and written only under `lock`.
final class ProductLocks: @unchecked Sendable {
    static let shared = ProductLocks()
    private let lock = ConditionLock()
    private var held: Set<String> = []

    func acquire(_ key: String) {
        lock.withLock {
            while held.contains(key) { lock.wait() }
            held.insert(key)
        }
    }

    func release(_ key: String) {
        lock.withLock {
            held.remove(key)
            lock.broadcast()
        }
    }
}
