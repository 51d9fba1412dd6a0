#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Creates the folders files go into, each once per run, from every worker at once.
/// `@unchecked Sendable`: `made` is read and written only under `lock`.
final class FolderMaker: @unchecked Sendable {
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

/// The files written by this run, to flush before the version becomes visible: their paths while
/// they are few (each is flushed on its own), their number once they are many (the whole file
/// system is flushed: `LocalFiles.flush`).
/// `@unchecked Sendable`: `paths` and `count` are read and written only under `lock`.
final class WrittenFiles: @unchecked Sendable {
    private let lock = ClientLock()
    private var paths: [String] = []
    private var count = 0
    /// More than this many and the paths are no longer kept (100,000 of them held 15 MB).
    static let listed = LocalFiles.flushedOneByOne

    /// Remembers `path`.
    func add(_ path: String) {
        lock.withLock {
            count += 1
            if count <= Self.listed {
                paths.append(path)
            } else {
                paths = []
            }
        }
    }

    /// Everything remembered: the paths, or nil when there were too many to list.
    var all: [String]? { lock.withLock { count <= Self.listed ? paths : nil } }
}
