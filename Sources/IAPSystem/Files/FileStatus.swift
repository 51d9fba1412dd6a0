#if canImport(Glibc)
    import Glibc
#endif

/// What kind of thing a path names, from the file-type bits of its status.
package enum FileKind: Equatable, Sendable {
    case regular
    case directory
    case symlink
    case fifo
    case characterDevice
    case blockDevice
    case socket
    /// File-type bits that name no known kind (the octal value of `mode & 0o170000`).
    case unknown(UInt32)

    /// The kind that the file-type bits of `mode` name.
    package init(mode: UInt32) {
        switch mode_t(mode) & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .directory
        case S_IFLNK: self = .symlink
        case S_IFIFO: self = .fifo
        case S_IFCHR: self = .characterDevice
        case S_IFBLK: self = .blockDevice
        case S_IFSOCK: self = .socket
        default: self = .unknown(mode & UInt32(S_IFMT))
        }
    }
}

/// The status of a file (`stat`), reduced to what the tool looks at.
package struct FileStatus: Equatable, Sendable {
    /// Regular file, folder, symlink…
    package var kind: FileKind
    /// The permission bits (`mode & 0o7777`).
    package var permissions: UInt32
    /// Size in bytes.
    package var size: UInt64
    /// Last modification, in seconds since 1970.
    package var modificationTime: Int64
    /// The nanoseconds past `modificationTime`.
    package var modificationNanoseconds: Int64

    init(_ st: stat) {
        kind = FileKind(mode: UInt32(st.st_mode))
        permissions = UInt32(st.st_mode) & 0o7777
        size = UInt64(max(0, st.st_size))
        modificationTime = Int64(st.st_mtim.tv_sec)
        modificationNanoseconds = Int64(st.st_mtim.tv_nsec)
    }

    /// True for a folder.
    package var isDirectory: Bool { kind == .directory }
    /// True for a regular file.
    package var isRegularFile: Bool { kind == .regular }

    /// The status of what `path` names, following a final symlink (`stat`).
    package static func of(_ path: String) throws(SystemError) -> FileStatus {
        var st = stat()
        guard stat(path, &st) == 0 else { throw SystemError("open", path: path) }
        return FileStatus(st)
    }

    /// The status of `path` itself, never following a symlink (`lstat`).
    package static func ofLink(_ path: String) throws(SystemError) -> FileStatus {
        var st = stat()
        guard lstat(path, &st) == 0 else { throw SystemError("stat", path: path) }
        return FileStatus(st)
    }

    /// Seconds since this file was last modified.
    package var age: Double {
        let now = WallClock.now()
        return Double(now.seconds - modificationTime) + Double(now.nanoseconds - modificationNanoseconds) / 1e9
    }
}
