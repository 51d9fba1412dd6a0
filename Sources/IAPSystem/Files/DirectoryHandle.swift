internal import CShims

#if canImport(Glibc)
    import Glibc
#endif

/// An open directory, and every operation relative to it (`openat`, `mkdirat`, `renameat`…),
/// never following a symlink: the basis for writing untrusted content without leaving the folder.
package final class DirectoryHandle: Sendable {
    package let descriptor: Int32
    /// The path it was opened with, for messages.
    package let path: String

    private init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit { close(descriptor) }

    /// Opens the directory at `path` (a symlink as the last component is refused).
    package static func open(_ path: String) throws -> DirectoryHandle {
        let fd = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { throw SystemError("open folder", path: path) }
        return DirectoryHandle(descriptor: fd, path: path)
    }

    /// Opens the child directory `name` (never through a symlink).
    package func openDirectory(_ name: String) throws -> DirectoryHandle {
        let fd = openat(descriptor, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { throw SystemError("open folder", path: child(name)) }
        return DirectoryHandle(descriptor: fd, path: child(name))
    }

    /// Whether files and folders created below this one get exactly the mode asked for, every one of
    /// `modes`, with no `chmod` after: no default ACL on this folder (which its new subfolders would
    /// inherit, and which replaces the umask), and a umask (read from /proc/self/status) that
    /// clears none of their bits. False whenever it cannot tell.
    package func createsExactly(_ modes: [UInt32]) -> Bool {
        guard iap_has_default_acl(descriptor) == 0, let mask = Self.processUmask() else { return false }
        return modes.allSatisfy { $0 & mask == 0 }
    }

    /// The umask of this process from the `Umask:` line of /proc/self/status (Linux 4.7 and later).
    private static func processUmask() -> UInt32? {
        guard let bytes = try? FileSystem.readSmallFile("/proc/self/status", maxBytes: 1 << 16) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Umask:") }) else { return nil }
        return UInt32(line.dropFirst("Umask:".count).trimmingPrefix(while: { $0 == " " || $0 == "\t" }), radix: 8)
    }

    /// Creates the child directory `name` with exactly `mode` (umask ignored); fails if it exists.
    package func makeDirectory(_ name: String, mode: UInt32) throws {
        guard mkdirat(descriptor, name, mode_t(mode)) == 0 else {
            throw SystemError("create folder", path: child(name))
        }
        guard fchmodat(descriptor, name, mode_t(mode), 0) == 0 else { throw SystemError("chmod", path: child(name)) }
    }

    /// Creates the child directory `name` with exactly `mode` unless something is already there
    /// (one `mkdirat`, no `stat` first); true if it was created. What is there is not checked:
    /// opening it with `openDirectory` refuses anything but a folder.
    /// With `modeIsExact` (see `createsExactly`) the `chmod` after it is left out.
    package func makeDirectoryIfMissing(_ name: String, mode: UInt32, modeIsExact: Bool = false) throws -> Bool {
        if mkdirat(descriptor, name, mode_t(mode)) != 0 {
            guard errno == EEXIST else { throw SystemError("create folder", path: child(name)) }
            return false
        }
        if modeIsExact { return true }
        guard fchmodat(descriptor, name, mode_t(mode), 0) == 0 else { throw SystemError("chmod", path: child(name)) }
        return true
    }

    /// Creates the child directory `name` unless a directory is already there; returns it opened.
    package func makeOrOpenDirectory(_ name: String, mode: UInt32) throws -> DirectoryHandle {
        if mkdirat(descriptor, name, mode_t(mode)) != 0 && errno != EEXIST {
            throw SystemError("create folder", path: child(name))
        }
        return try openDirectory(name)
    }

    /// Creates a new file `name` (`O_EXCL | O_NOFOLLOW`) with exactly `mode`, for writing; with
    /// `modeIsExact` (see `createsExactly`) the `fchmod` after it is left out.
    package func createFile(_ name: String, mode: UInt32, modeIsExact: Bool = false) throws -> FileDescriptor {
        let fd = openat(descriptor, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode_t(mode))
        guard fd >= 0 else { throw SystemError("create", path: child(name)) }
        guard modeIsExact || fchmod(fd, mode_t(mode)) == 0 else {
            close(fd)
            throw SystemError("chmod", path: child(name))
        }
        return FileDescriptor(owning: fd, path: child(name))
    }

    /// Opens the existing regular file `name` for reading (never through a symlink).
    package func openFile(_ name: String) throws -> FileDescriptor {
        let fd = openat(descriptor, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { throw SystemError("open", path: child(name)) }
        return FileDescriptor(owning: fd, path: child(name))
    }

    /// Opens (creating if needed) a file used as a lock; never through a symlink.
    package func openLockFile(_ name: String) throws -> FileDescriptor {
        let fd = openat(descriptor, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw SystemError("open lock", path: child(name)) }
        return FileDescriptor(owning: fd, path: child(name))
    }

    /// Creates the symlink `name` → `target`.
    package func makeSymlink(_ name: String, target: String) throws {
        guard symlinkat(target, descriptor, name) == 0 else { throw SystemError("create link", path: child(name)) }
    }

    /// The target of the symlink `name`, or nil if there is none.
    package func readSymlink(_ name: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4097)
        let n = readlinkat(descriptor, name, &buffer, 4096)
        guard n >= 0 else { return nil }
        return String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Renames the child `name` to `newName` in `destination` (replacing a file or empty folder there).
    package func rename(_ name: String, to newName: String, in destination: DirectoryHandle? = nil) throws {
        let target = destination ?? self
        guard renameat(descriptor, name, target.descriptor, newName) == 0 else {
            throw SystemError("rename \(child(name)) to", path: target.child(newName))
        }
    }

    /// Renames the child `name` to `newName` in `destination` only if nothing is there: false if
    /// something is (`EEXIST`), nil if `name` is gone (`ENOENT`), true when renamed.
    package func renameNoReplace(_ name: String, to newName: String, in destination: DirectoryHandle? = nil) throws
        -> Bool?
    {
        let target = destination ?? self
        if iap_rename_noreplace(descriptor, name, target.descriptor, newName) == 0 { return true }
        if errno == EEXIST { return false }
        if errno == ENOENT { return nil }
        throw SystemError("rename \(child(name)) to", path: target.child(newName))
    }

    /// Seconds since the child `name` was last modified (nil if it is not there).
    package func age(_ name: String) -> Double? { status(name)?.age }

    /// The bytes of the small regular file `name` (at most `limit`), never through a symlink.
    package func readFile(_ name: String, limit: Int = 64 << 20) throws -> [UInt8] {
        let file = try openFile(name)
        var bytes: [UInt8] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let n = try file.readSequential(into: buffer)
            if n == 0 { return bytes }
            bytes.append(contentsOf: buffer[0..<n])
            if bytes.count > limit { throw SystemError("read", path: child(name), code: EFBIG) }
        }
    }

    /// Replaces (or creates) the file `name` with `bytes` atomically: a hidden temporary file,
    /// written and flushed, renamed over it, and the folder flushed.
    package func writeAtomically(_ name: String, _ bytes: [UInt8], mode: UInt32 = 0o644) throws {
        let temporary = ".\(name).tmp-" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        do {
            let file = try createFile(temporary, mode: mode)
            try file.write(bytes)
            try file.sync()
            try rename(temporary, to: name)
        } catch {
            _ = unlinkat(descriptor, temporary, 0)
            throw error
        }
        try sync()
    }

    /// Swaps the children `a` and `b` atomically (both must exist).
    package func exchange(_ a: String, _ b: String) throws {
        guard iap_rename_exchange(descriptor, a, descriptor, b) == 0 else {
            throw SystemError("exchange \(child(a)) with", path: child(b))
        }
    }

    /// What the child `name` is (`lstat`), or nil if nothing is there.
    package func status(_ name: String) -> FileStatus? {
        var st = stat()
        return fstatat(descriptor, name, &st, AT_SYMLINK_NOFOLLOW) == 0 ? FileStatus(st) : nil
    }

    /// What the child `name` is (`lstat`); an error names `reportedPath` (the child's path if nil).
    package func linkStatus(_ name: String, reportedPath: String? = nil) throws(SystemError) -> FileStatus {
        guard let found = status(name) else { throw SystemError("stat", path: reportedPath ?? child(name)) }
        return found
    }

    /// The names in this directory, "." and ".." left out, in byte order.
    package func names() throws -> [String] {
        let fd = openat(descriptor, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0, let dir = fdopendir(fd) else { throw SystemError("read folder", path: path) }
        defer { closedir(dir) }
        var names: [[UInt8]] = []
        errno = 0
        while let item = readdir(dir) {
            let name: [UInt8] = withUnsafeBytes(of: item.pointee.d_name) { Array($0.prefix(while: { $0 != 0 })) }
            if name == [0x2E] || name == [0x2E, 0x2E] { continue }
            names.append(name)
        }
        if errno != 0 { throw SystemError("read folder", path: path) }
        names.sort { $0.lexicographicallyPrecedes($1) }
        return names.map { String(decoding: $0, as: UTF8.self) }
    }

    /// Removes the child `name` and everything below it, never following symlinks.
    package func removeTree(_ name: String) throws {
        guard let status = status(name) else { return }
        if status.isDirectory {
            let child = try openDirectory(name)
            for item in try child.names() { try child.removeTree(item) }
            guard unlinkat(descriptor, name, AT_REMOVEDIR) == 0 else {
                throw SystemError("remove folder", path: self.child(name))
            }
        } else {
            guard unlinkat(descriptor, name, 0) == 0 else { throw SystemError("remove", path: child(name)) }
        }
    }

    /// Flushes the directory's entries to the disk.
    package func sync() throws {
        guard fsync(descriptor) == 0 else { throw SystemError("fsync", path: path) }
    }

    /// Flushes every written file and folder of this file system to the disk (`syncfs`): one
    /// call instead of an `fsync` per file.
    package func syncFileSystem() throws {
        guard iap_syncfs(descriptor) == 0 else { throw SystemError("syncfs", path: path) }
    }

    /// Bytes free for unprivileged use on the directory's file system.
    package func availableBytes() throws -> UInt64 {
        var st = statvfs()
        guard fstatvfs(descriptor, &st) == 0 else { throw SystemError("statvfs", path: path) }
        return UInt64(st.f_bavail) * UInt64(st.f_frsize)
    }

    /// Takes an exclusive `flock` on `file`, waiting for other holders.
    package static func lockExclusively(_ file: FileDescriptor) throws {
        guard retryingOnInterrupt({ flock(file.rawValue, LOCK_EX) }) == 0 else {
            throw SystemError("lock", path: file.path)
        }
    }

    /// `name` joined to this directory's path, for messages.
    package func child(_ name: String) -> String { path.hasSuffix("/") ? path + name : path + "/" + name }
}
