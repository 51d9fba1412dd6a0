/// Where a version store lives, as a command's ROOT names it: a folder path, or an object
/// store URL `s3://BUCKET/PREFIX` (PackageFormat.md §11).
package enum StoreLocation: Sendable, Equatable, CustomStringConvertible {
    /// A folder on this machine.
    case folder(String)
    /// A bucket and key prefix, as written (`s3://BUCKET` or `s3://BUCKET/PREFIX`).
    case objectStore(String)

    /// The scheme that names an object store.
    package static let objectStoreScheme = "s3://"

    /// Reads a ROOT argument: `s3://…` is an object store, anything else a folder path.
    package init(_ text: String) {
        self = text.hasPrefix(Self.objectStoreScheme) ? .objectStore(text) : .folder(text)
    }

    package var description: String {
        switch self {
        case .folder(let path): path
        case .objectStore(let url): url
        }
    }

    /// Whether this names an object store.
    package var isObjectStore: Bool {
        if case .objectStore = self { return true }
        return false
    }

    /// The store, opened (an object store through the client this build registered).
    package func open() throws -> any VersionStorage {
        switch self {
        case .folder(let path): FolderVersionStorage(path)
        case .objectStore(let url): try ObjectStoreOpening.shared.open(url)
        }
    }
}
