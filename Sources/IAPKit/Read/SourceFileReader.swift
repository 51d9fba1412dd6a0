import IAPCore

#if canImport(Glibc)
    import Glibc
#endif

/// Streams a content file from disk in 1 MiB pieces, refusing links and files that changed size
/// since the folder was scanned.
enum SourceFileReader {
    static let chunkSize = 1 << 20

    /// Calls `body` with each piece of the file at `path`, which must be `expectedSize` bytes.
    static func stream(_ path: String, expectedSize: UInt64, into body: (UnsafeRawBufferPointer) throws -> Void) throws
    {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { throw SystemError("open", path: path) }
        let file = FileDescriptor(owning: fd, path: path)
        posix_fadvise(fd, 0, 0, Int32(POSIX_FADV_SEQUENTIAL))
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 64)
        defer { buffer.deallocate() }
        var total: UInt64 = 0
        while true {
            let n = try file.readSequential(into: buffer)
            if n == 0 { break }
            total += UInt64(n)
            guard total <= expectedSize else { break }
            try body(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
        }
        guard total == expectedSize else {
            throw IAPKitError.failed(
                "\(path) changed while it was being packaged (\(expectedSize) bytes when scanned, \(total) now); build again"
            )
        }
    }
}
