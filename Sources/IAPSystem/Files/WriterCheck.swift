#if canImport(Glibc)
    import Glibc
#endif

/// Whether any process holds a file open for writing, asked of the kernel with a read lease
/// (`F_SETLEASE`, `F_RDLCK`): Linux refuses one with `EAGAIN` while any descriptor of the file is
/// open for writing, whatever the writer's pace. The lease is dropped at once; `SIGIO`, which the
/// kernel sends to a lease holder when someone opens the file meanwhile, is ignored.
///
/// A lease needs the caller to own the file or to hold `CAP_LEASE`, and a file system that
/// supports leases (local ones do; NFS and FUSE mostly not): otherwise the answer is `unknown`.
package enum WriterCheck {
    /// What the kernel said of a file's writers.
    package enum Answer: Equatable, Sendable {
        /// No process has it open for writing.
        case none
        /// Some process has it open for writing (or is opening it so).
        case writing
        /// No lease could be taken (the `errno`): not the owner and no `CAP_LEASE`, or a file
        /// system without leases.
        case unknown(Int32)
    }

    private static let setLease: Int32 = 1024  // F_SETLEASE (linux/fcntl.h, F_LINUX_SPECIFIC_BASE)

    private static let ignoreLeaseBreaks: Void = { _ = signal(SIGIO, SIG_IGN) }()

    /// Asks about the regular file `name` in `folder`, opened without following a link and
    /// without blocking (a FIFO put there meanwhile is not waited on). Throws when it cannot be
    /// opened (gone, unreadable, not a regular file).
    package static func writers(of name: String, in folder: DirectoryHandle) throws -> Answer {
        ignoreLeaseBreaks
        let fd = openat(folder.descriptor, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { throw SystemError("open", path: folder.child(name)) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw SystemError("stat", path: folder.child(name)) }
        guard st.st_mode & S_IFMT == S_IFREG else {
            throw SystemError("open (not a regular file)", path: folder.child(name), code: EINVAL)
        }
        if fcntl(fd, setLease, Int32(F_RDLCK)) == 0 {
            _ = fcntl(fd, setLease, Int32(F_UNLCK))
            return .none
        }
        let code = errno
        return code == EAGAIN || code == EBUSY ? .writing : .unknown(code)
    }
}
