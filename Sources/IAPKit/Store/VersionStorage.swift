import IAPDelivery
import IAPSystem

/// A version store behind one set of operations (PackageFormat.md §7 and §11): the folder store
/// (`ROOT/<product>/<version>/`, a `current` link) and the object store (keys in a bucket,
/// `current.json` as the switch) both list products and versions, stage and commit a version,
/// read and conditionally replace `current`, and prune; `unpack`, `serve`, `list` and `activate`
/// never ask which one they have.
package protocol VersionStorage: Sendable {
    /// The store as the user named it (a path, or `s3://BUCKET/PREFIX`), for messages and reports.
    var location: String { get }

    /// Every product and version in the store, lowest version first, and which is current.
    func listing() throws -> StoreListing

    /// Opens a product for publishing (creating it if `create`); the folder store holds the
    /// product's lock until the value goes away, the object store relies on conditional writes.
    func openProduct(_ productIdentifier: String, create: Bool) throws -> any StoredProduct
}

/// One product of a version store, opened for publishing, activating and pruning.
package protocol StoredProduct: AnyObject {
    /// The product identifier.
    var productIdentifier: String { get }

    /// Versions installed completely, lowest first.
    func versions() throws -> [ContentVersion]

    /// The version `current` names, if any.
    func current() throws -> ContentVersion?

    /// What the product remembers for pruning (the pinned version, when versions left `current`).
    func retention() throws -> VersionRetention

    /// The installed version whose version compares equal to `version` (`3.50` for `3.50.0`).
    func installedName(of version: ContentVersion) throws -> String?

    /// Removes what a killed run left behind (staging, trash, unfinished uploads of its own kind).
    func removeStaleWork() throws

    /// A private local folder to write a version of `bytes` bytes and `entries` entries into,
    /// refused early when the space it needs is not there.
    func makeStaging(bytes: UInt64, entries: Int) throws -> VersionStaging

    /// Publishes the validated `package` as `version` straight from the package, nothing staged on
    /// disk, under the same steps and refusals as `commit`; nil when this store (the folder store)
    /// or this package (hard links) cannot go so, and the caller stages it instead.
    func publishDirectly(_ package: ValidatedPackage, as version: String, force: Bool, refusal: String) throws
        -> DirectPublish?

    /// Makes the staged content version `version`: installed, found already installed with the
    /// same content, or (`force`) replaced; different content under an installed version is
    /// refused with the message `refusal`. The staging folder is gone afterwards, whatever happens.
    func commit(_ staging: VersionStaging, as version: String, force: Bool, refusal: String) throws
        -> UnpackReport.Action

    /// Points `current` at the installed `version` if `allowed` (given the current version and
    /// the retention state read in the same step) says so, as one conditional replacement: when
    /// another publisher moved `current` meanwhile, both are read again and `allowed` asked again.
    /// `pinning` as `activate` pins (PackageFormat.md §7). Returns whether `current` now names `version`.
    @discardableResult
    func activate(
        _ version: String, pinning: Bool,
        if allowed: (_ current: ContentVersion?, _ retention: VersionRetention) throws -> Bool
    ) throws -> Bool

    /// Removes the lowest versions beyond `keep`, never the current or pinned one nor one current
    /// within `grace` seconds. Returns those removed.
    func prune(keep: Int, grace: Int64) throws -> [String]

    /// Where version `version` is, for reports (a folder path or an `s3://` URL).
    func location(of version: String) -> String

    /// The manifest of the installed `version` (its files with size and SHA-256, its symlinks), read
    /// without its content; refused when the version is not installed.
    func manifest(of version: String) throws -> VersionManifest

    /// The installed `version` as a local folder to read (ContentInfo.plist, Contents/…,
    /// manifest.json): the folder store's own version folder, or the object store's objects
    /// downloaded into a new folder inside `scratch`, each checked against the manifest's size and
    /// SHA-256, and removed when the value goes.
    func readableFolder(of version: String, scratch: String) throws -> ReadableVersion
}

/// An installed version readable as a local folder; a downloaded copy is removed when the value goes.
package final class ReadableVersion {
    /// The folder holding the version's content and manifest.
    package let path: String
    /// The folder made to hold a downloaded copy, if one was made.
    private let copy: TemporaryFolder?

    init(path: String, copy: TemporaryFolder? = nil) {
        self.path = path
        self.copy = copy
    }
}

/// A version being written: a private local folder, and what the store needs to commit it.
package final class VersionStaging {
    /// The folder the content and its manifest are written into.
    package let folder: DirectoryHandle
    /// The folder's name in its parent (the product folder for the folder store).
    package let name: String
    /// The folder it was made in (the product folder for the folder store), where whatever is
    /// left under `name` when the value goes is removed: a run that failed leaves no staging.
    /// Nil for a version folder that is only read (`store copy`'s source).
    let parent: DirectoryHandle?
    /// The local temporary folder holding it, removed when the value goes (object stores only).
    let scratch: TemporaryFolder?
    /// The regular files of the version (path below the folder, size), as its manifest lists them.
    var files: [(path: String, size: UInt64)] = []

    init(folder: DirectoryHandle, name: String, in parent: DirectoryHandle?, scratch: TemporaryFolder? = nil) {
        self.folder = folder
        self.name = name
        self.parent = parent
        self.scratch = scratch
    }

    deinit {
        if let parent, parent.status(name) != nil { try? parent.removeTree(name) }
    }
}

/// Opens object stores: set by a module that links an S3 client (the core builds have none).
/// `@unchecked Sendable`: `opener` is read and written only under `lock`.
package final class ObjectStoreOpening: @unchecked Sendable {
    /// The process's one registry.
    package static let shared = ObjectStoreOpening()
    private let lock = ConditionLock()
    private var opener: (@Sendable (String) throws -> any VersionStorage)?

    /// Sets how an `s3://` store URL is opened.
    package func register(_ open: @escaping @Sendable (String) throws -> any VersionStorage) {
        lock.withLock { opener = open }
    }

    /// Opens the object store at `url`, or says this build cannot.
    func open(_ url: String) throws -> any VersionStorage {
        guard let open = lock.withLock({ opener }) else {
            throw IAPKitError.failed(
                "\(url): this iapkg was built without object storage (the core build); use a folder, or the full build")
        }
        return try open(url)
    }
}
