#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Creates the folders files go into, each once per run, from every worker at once.
final class FolderMaker: @unchecked Sendable {
    // Safe to share: `made` is read and written only under `lock`.
    private let lock = ClientLock()
    private var made = Set<String>()

    /// Creates the folders above `path`.
    func makeParent(of path: String) throws(FetchError) {
        guard let slash = path.lastIndex(of: "/") else { return }
        let parent = String(path[..<slash])
        if lock.withLock({ made.contains(parent) }) { return }
        do {
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        } catch {
            throw .local(parent, "cannot be created (\(error))")
        }
        lock.withLock { _ = made.insert(parent) }
    }
}

/// The files written by this run, to flush before the version becomes visible.
final class WrittenFiles: @unchecked Sendable {
    // Safe to share: `paths` is read and written only under `lock`.
    private let lock = ClientLock()
    private var paths: [String] = []

    /// Remembers `path`.
    func add(_ path: String) { lock.withLock { paths.append(path) } }

    /// Everything remembered.
    var all: [String] { lock.withLock { paths } }
}
