#if canImport(Glibc)
    import Glibc
#endif

/// What a resumable download does with files (IAPClient's part files and folder lock): a file
/// opened for writing that keeps its bytes, a lock tried without waiting, a hard link that
/// replaces what is at its place.
extension FileDescriptor {
    /// Opens `path` for writing, creating it (mode 0644 less the umask) and keeping what it holds,
    /// or emptying it when `emptied` (`O_TRUNC`: a file just created is not truncated, so ext4
    /// does not start writing it back at its close, as it does for a file truncated to 0).
    package static func openForWriting(_ path: String, emptied: Bool = false) throws(SystemError) -> FileDescriptor {
        let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (emptied ? O_TRUNC : 0), 0o644)
        guard fd >= 0 else { throw SystemError("open", path: path) }
        return FileDescriptor(owning: fd, path: path)
    }

    /// Takes an exclusive `flock` without waiting: false when another holder has it.
    package func tryLockExclusively() throws(SystemError) -> Bool {
        if retryingOnInterrupt({ flock(rawValue, LOCK_EX | LOCK_NB) }) == 0 { return true }
        guard errno == EWOULDBLOCK else { throw SystemError("lock", path: path) }
        return false
    }

    /// Releases a `flock` this descriptor holds.
    package func unlock() {
        _ = flock(rawValue, LOCK_UN)
    }
}

extension FileSystem {
    /// Hard-links `source` to `target`, replacing a file at `target`.
    package static func hardLink(_ source: String, to target: String) throws(SystemError) {
        if link(source, target) == 0 { return }
        guard errno == EEXIST, unlink(target) == 0 || errno == ENOENT, link(source, target) == 0 else {
            throw SystemError("link", path: target)
        }
    }

    /// Waits `seconds` on the calling thread.
    package static func sleep(seconds: Double) {
        _ = usleep(useconds_t(max(0, seconds) * 1_000_000))
    }
}
