import Foundation

/// The file-system steps repeated for every file of a version, with one system call each where
/// FileManager makes several (at 100,000 files FileManager's extra status and attribute calls
/// were most of an update's time). POSIX calls, as Foundation exposes them on Linux and Apple platforms.
enum LocalFiles {
    /// The size of the regular file at `path` (a symlink is not followed), nil when there is none.
    static func regularSize(_ path: String) -> UInt64? {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return UInt64(info.st_size)
    }

    /// True when something (a file, a folder, a symlink) is at `path`.
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Hard-links `source` to `target` (replacing what is there), or copies it where links fail.
    static func link(_ source: String, to target: String) throws(FetchError) {
        if Foundation.link(source, target) == 0 { return }
        if errno == EEXIST {
            _ = unlink(target)
            if Foundation.link(source, target) == 0 { return }
        }
        do {
            try? FileManager.default.removeItem(atPath: target)
            try FileManager.default.copyItem(atPath: source, toPath: target)
        } catch {
            throw .local(target, "cannot be written (\(error.localizedDescription))")
        }
    }

    /// Renames `source` to `target`, replacing a file there.
    static func move(_ source: String, to target: String) throws(FetchError) {
        guard rename(source, target) == 0 else {
            throw .local(target, "cannot be renamed into place (\(String(cString: strerror(errno))))")
        }
    }

    /// Flushes `paths` (files under `folder`) to disk: each file's `fsync` for a few; for many on
    /// Linux, one `syncfs` of the folder's file system (thousands of small files flush far faster
    /// in one pass than one by one, and unlike `sync` it leaves other file systems alone).
    static func flush(_ paths: [String], in folder: String) throws(FetchError) {
        #if os(Linux)
            if paths.count > 64, let handle = FileHandle(forReadingAtPath: folder) {
                defer { try? handle.close() }
                guard linuxSyncfs(handle.fileDescriptor) == 0 else { throw .local(folder, "cannot be flushed to disk") }
                return
            }
        #endif
        for path in paths {
            guard let handle = FileHandle(forUpdatingAtPath: path) else { continue }
            defer { try? handle.close() }
            do { try handle.synchronize() } catch { throw .local(path, "cannot be flushed to disk") }
        }
    }
}

#if os(Linux)
    /// glibc's `syncfs(2)`, which its headers declare only under _GNU_SOURCE (so Foundation does not
    /// bring it): `int syncfs(int fd)`.
    @_silgen_name("syncfs")
    private func linuxSyncfs(_ descriptor: Int32) -> Int32
#endif

/// Creates the folders files go into, each once per run, from every worker at once.
/// `@unchecked Sendable`: `made` is read and written only under `lock` (two workers may both
/// create a folder; `createDirectory` with intermediates makes that harmless).
final class FolderMaker: @unchecked Sendable {
    private let lock = NSLock()
    private var made = Set<String>()

    /// Creates the folders above `path`.
    func makeParent(of path: String) throws(FetchError) {
        guard let slash = path.lastIndex(of: "/") else { return }
        let parent = String(path[..<slash])
        if lock.withLock({ made.contains(parent) }) { return }
        do {
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        } catch {
            throw .local(parent, "cannot be created (\(error.localizedDescription))")
        }
        lock.withLock { _ = made.insert(parent) }
    }
}

/// The files written by this run, to flush before the version becomes visible.
/// `@unchecked Sendable`: `paths` is read and written only under `lock`.
final class WrittenFiles: @unchecked Sendable {
    private let lock = NSLock()
    private var paths: [String] = []

    /// Remembers `path`.
    func add(_ path: String) { lock.withLock { paths.append(path) } }

    /// Everything remembered.
    var all: [String] { lock.withLock { paths } }
}
