internal import CShims

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An open file descriptor with exactly one owner; closed when the owner goes away.
package final class FileDescriptor: Sendable {
    /// The raw descriptor, valid for the lifetime of this object.
    package let rawValue: Int32
    /// The path it was opened with, for error messages.
    package let path: String

    /// Takes ownership of an already open descriptor.
    package init(owning rawValue: Int32, path: String) {
        self.rawValue = rawValue
        self.path = path
    }

    deinit { close(rawValue) }

    /// Opens an existing file for reading.
    package static func openForReading(_ path: String) throws -> FileDescriptor {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw SystemError("open", path: path) }
        return FileDescriptor(owning: fd, path: path)
    }

    /// Creates a new file that must not exist yet (`O_EXCL`), for writing (and reading, if asked).
    package static func createExclusive(_ path: String, mode: UInt32 = 0o644, readable: Bool = false) throws
        -> FileDescriptor
    {
        let fd = open(path, (readable ? O_RDWR : O_WRONLY) | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode_t(mode))
        guard fd >= 0 else { throw SystemError("create", path: path) }
        return FileDescriptor(owning: fd, path: path)
    }

    /// The file's status (`fstat`).
    package func status() throws -> FileStatus {
        var st = stat()
        guard fstat(rawValue, &st) == 0 else { throw SystemError("stat", path: path) }
        return FileStatus(st)
    }

    /// The file's size in bytes.
    package func size() throws -> UInt64 { try status().size }

    /// Sets the file's permission bits to exactly `mode`, whatever the umask was at creation.
    package func setPermissions(_ mode: UInt32) throws {
        guard fchmod(rawValue, mode_t(mode)) == 0 else { throw SystemError("chmod", path: path) }
    }

    /// Tells the kernel the file will be read once from start to end (read-ahead), best effort.
    package func adviseSequentialReading() {
        _ = posix_fadvise(rawValue, 0, 0, Int32(POSIX_FADV_SEQUENTIAL))
    }

    /// Reads up to `buffer.count` bytes at `offset`; returns how many were read (0 at end of file).
    package func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        var done = 0
        while done < buffer.count {
            let n = retryingOnInterrupt {
                pread(rawValue, base + done, buffer.count - done, off_t(offset) + off_t(done))
            }
            if n < 0 { throw SystemError("read", path: path) }
            if n == 0 { break }
            done += n
        }
        return done
    }

    /// Reads exactly `count` bytes at `offset`, or fewer only if the file ends first.
    package func read(count: Int, at offset: UInt64) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let n = try bytes.withUnsafeMutableBytes { buffer in try read(into: buffer, at: offset) }
        if n < count { bytes.removeLast(count - n) }
        return bytes
    }

    /// Reads sequentially from the current position; returns 0 at end of file.
    package func readSequential(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        let n = retryingOnInterrupt { Glibc.read(rawValue, base, buffer.count) }
        if n < 0 { throw SystemError("read", path: path) }
        return n
    }

    /// Writes every byte of `buffer` at the current position.
    package func write(_ buffer: UnsafeRawBufferPointer) throws {
        guard let base = buffer.baseAddress else { return }
        var done = 0
        while done < buffer.count {
            let n = retryingOnInterrupt { Glibc.write(rawValue, base + done, buffer.count - done) }
            if n < 0 { throw SystemError("write", path: path) }
            done += n
        }
    }

    /// Writes every byte of `bytes` at `offset`, leaving the current position alone (`pwrite`).
    package func write(_ bytes: [UInt8], at offset: UInt64) throws {
        try bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var done = 0
            while done < buffer.count {
                let n = retryingOnInterrupt {
                    pwrite(rawValue, base + done, buffer.count - done, off_t(offset) + off_t(done))
                }
                if n < 0 { throw SystemError("write", path: path) }
                done += n
            }
        }
    }

    /// Cuts the file to `length` bytes (or extends it with zeros).
    package func truncate(to length: UInt64) throws(SystemError) {
        guard ftruncate(rawValue, off_t(length)) == 0 else { throw SystemError("truncate", path: path) }
    }

    /// Moves the current position to `offset`.
    package func seek(to offset: UInt64) throws {
        guard lseek(rawValue, off_t(offset), SEEK_SET) >= 0 else { throw SystemError("seek", path: path) }
    }

    /// Writes every byte of `bytes` at the current position.
    package func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { buffer in try write(buffer) }
    }

    /// Asks the kernel to start writing the file's dirty pages out now, without waiting: a later
    /// `syncfs` then has little left to wait for. Best effort; errors surface at that sync.
    package func startWriteback() {
        _ = iap_start_writeback(rawValue)
    }

    /// Flushes the file's data and metadata to the disk.
    package func sync() throws {
        guard fsync(rawValue) == 0 else { throw SystemError("fsync", path: path) }
    }

    /// Copies `count` bytes from `source` at `offset` to the current position of this file,
    /// in the kernel where it can (`copy_file_range`), by reading and writing otherwise.
    package func append(from source: FileDescriptor, offset: UInt64, count: UInt64) throws {
        var remaining = count
        var sourceOffset = Int64(offset)
        while remaining > 0 {
            let chunk = Int(min(remaining, 1 << 30))
            let n = retryingOnInterrupt { iap_copy_file_range(source.rawValue, &sourceOffset, rawValue, nil, chunk) }
            if n > 0 {
                remaining -= UInt64(n)
                continue
            }
            if n == 0 { throw SystemError("copy", path: source.path, code: EIO) }
            if errno == EXDEV || errno == ENOSYS || errno == EINVAL || errno == EOPNOTSUPP {
                try appendByCopying(from: source, offset: UInt64(sourceOffset), count: remaining)
                return
            }
            throw SystemError("copy", path: path)
        }
    }

    private func appendByCopying(from source: FileDescriptor, offset: UInt64, count: UInt64) throws {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        var done: UInt64 = 0
        while done < count {
            let want = Int(min(UInt64(buffer.count), count - done))
            let n = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<want]), at: offset + done)
            if n == 0 { throw SystemError("read", path: source.path, code: EIO) }
            try write(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
            done += UInt64(n)
        }
    }
}
