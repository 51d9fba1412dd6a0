internal import CShims
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

extension DirectoryHandle {
    /// Whether `openat2` may still be tried in this process: cleared the first time the kernel
    /// (before Linux 5.6) or a system-call filter answers that it has none.
    private static let kernelResolves = Atomic<Bool>(true)

    /// Creates a new file (`O_EXCL`, exactly `mode`) at `relativePath`, one or more components below
    /// this folder, for writing, never through a symlink and never outside this folder: one
    /// `openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS)` instead of an open
    /// and a close of every folder on the way. Where `openat2` is missing (`ENOSYS`), refused by a
    /// filter (`EPERM`) or does not know the flags (`EINVAL`, `E2BIG`), or with `resolveInKernel`
    /// false, each folder on the way is opened in turn with `O_NOFOLLOW`, as `openDirectory` does.
    /// A path with an empty, "." or ".." component, or a leading "/", is refused either way.
    package func createFile(
        beneath relativePath: String, mode: UInt32, modeIsExact: Bool = false, resolveInKernel: Bool = true
    ) throws -> FileDescriptor {
        guard let count = Self.nameCount(relativePath) else {
            throw SystemError("create", path: child(relativePath), code: EINVAL)
        }
        if count == 1 { return try createFile(relativePath, mode: mode, modeIsExact: modeIsExact) }
        if resolveInKernel && Self.kernelResolves.load(ordering: .relaxed) {
            let fd = iap_openat2_beneath(
                descriptor, relativePath, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
            if fd >= 0 {
                guard modeIsExact || fchmod(fd, mode_t(mode)) == 0 else {
                    let error = SystemError("chmod", path: child(relativePath))
                    close(fd)
                    throw error
                }
                return FileDescriptor(owning: fd, path: child(relativePath))
            }
            let code = errno
            guard [ENOSYS, EPERM, EINVAL, E2BIG].contains(code) else {
                throw SystemError("create", path: child(relativePath), code: code)
            }
            Self.kernelResolves.store(false, ordering: .relaxed)
        }
        let components = relativePath.split(separator: "/")
        var folder = self
        for component in components.dropLast() { folder = try folder.openDirectory(String(component)) }
        return try folder.createFile(String(components[components.count - 1]), mode: mode, modeIsExact: modeIsExact)
    }

    /// How many names `path` joins with "/", or nil if one is empty, "." or ".." (a leading or
    /// trailing "/", "//", "./", "../"): one pass over the bytes, no strings made.
    static func nameCount(_ path: String) -> Int? {
        var count = 1
        var length = 0
        var dots = 0
        for byte in path.utf8 {
            if byte == UInt8(ascii: "/") {
                guard length > 0, dots < length || length > 2 else { return nil }
                count += 1
                length = 0
                dots = 0
            } else {
                length += 1
                if byte == UInt8(ascii: ".") { dots += 1 }
            }
        }
        guard length > 0, dots < length || length > 2 else { return nil }
        return count
    }
}
