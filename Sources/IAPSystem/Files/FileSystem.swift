#if canImport(Glibc)
    import Glibc
#endif

/// Operations on paths (as opposed to `DirectoryHandle`, whose operations are relative to an open
/// folder): real paths, folders, renames, removals, named temporary files.
package enum FileSystem {
    /// The status of what `path` names, following a final symlink; nil if nothing is there.
    package static func status(_ path: String) -> FileStatus? { try? FileStatus.of(path) }

    /// The status of `path` itself, never following a symlink; nil if nothing is there.
    package static func linkStatus(_ path: String) -> FileStatus? { try? FileStatus.ofLink(path) }

    /// `path` with every symlink, "." and ".." resolved (`realpath`); nil if it does not exist.
    package static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The target of the symlink at `path`.
    package static func readLink(_ path: String) throws(SystemError) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink(path, &buffer, buffer.count - 1)
        guard n >= 0 else { throw SystemError("read link", path: path) }
        return String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Creates the folder `path` (mode `mode`, less the umask); with `existingIsFine`, a folder
    /// or anything else already there is no error.
    package static func makeDirectory(_ path: String, mode: UInt32 = 0o755, existingIsFine: Bool = false)
        throws(SystemError)
    {
        guard mkdir(path, mode_t(mode)) == 0 || (existingIsFine && errno == EEXIST) else {
            throw SystemError("create folder", path: path)
        }
    }

    /// Sets the permission bits of `path` to exactly `mode`.
    package static func setPermissions(_ path: String, _ mode: UInt32) throws(SystemError) {
        guard chmod(path, mode_t(mode)) == 0 else { throw SystemError("chmod", path: path) }
    }

    /// Renames `source` to `destination`, replacing a file there.
    package static func rename(_ source: String, to destination: String) throws(SystemError) {
        guard Glibc.rename(source, destination) == 0 else { throw SystemError("rename", path: destination) }
    }

    /// Removes the file (not folder) `path`; false if it could not be removed.
    @discardableResult
    package static func remove(_ path: String) -> Bool { unlink(path) == 0 }

    /// Flushes the entries of the folder `path` to the disk, best effort (a rename is durable
    /// only once its folder is flushed).
    package static func syncFolder(_ path: String) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    /// Creates a new, empty file named `prefix` plus six random characters in `folder`
    /// (`mkstemp`: mode 0600, never an existing file), for reading and writing.
    package static func makeTemporaryFile(in folder: String, prefix: String) throws(SystemError) -> FileDescriptor {
        var template = Array((folder + "/" + prefix + "XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkstemp($0) } ?? -1 }
        guard fd >= 0 else { throw SystemError("create a temporary file in", path: folder) }
        let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return FileDescriptor(owning: fd, path: path)
    }

    /// Opens the existing file `path` for reading, refusing a symlink as its last component.
    package static func openNoFollow(_ path: String) throws(SystemError) -> FileDescriptor {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { throw SystemError("open", path: path) }
        return FileDescriptor(owning: fd, path: path)
    }

    /// The whole of a small file (a certificate, a key): at most `maxBytes`, else an `EFBIG` error.
    package static func readSmallFile(_ path: String, maxBytes: Int = 1 << 20) throws(SystemError) -> [UInt8] {
        let file: FileDescriptor
        do { file = try FileDescriptor.openForReading(path) } catch {
            throw (error as? SystemError) ?? SystemError("open", path: path)
        }
        var bytes: [UInt8] = []
        var offset: UInt64 = 0
        while true {
            let chunk: [UInt8]
            do { chunk = try file.read(count: 64 << 10, at: offset) } catch {
                throw (error as? SystemError) ?? SystemError("read", path: path)
            }
            if chunk.isEmpty { return bytes }
            bytes += chunk
            offset += UInt64(chunk.count)
            if bytes.count > maxBytes { throw SystemError("read", path: path, code: EFBIG) }
        }
    }

    /// The value of the environment variable `name`, or nil when it is unset or empty.
    package static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }

    /// Makes a write past the process's file-size limit fail with `EFBIG` instead of killing the
    /// process with `SIGXFSZ` half-way through a file.
    package static func reportFileSizeLimitAsError() {
        signal(SIGXFSZ, SIG_IGN)
    }
}
