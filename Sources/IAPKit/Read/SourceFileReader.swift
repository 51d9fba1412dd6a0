import IAPSystem

/// Streams a content file from disk in 1 MiB pieces, refusing links and files that changed size
/// since the folder was scanned.
enum SourceFileReader {
    static let chunkSize = 1 << 20

    /// Calls `body` with each piece of the file at `path`, which must be `expectedSize` bytes.
    static func stream(_ path: String, expectedSize: UInt64, into body: (UnsafeRawBufferPointer) throws -> Void) throws
    {
        let file = try FileSystem.openNoFollow(path)
        // A small file is read in one piece into a buffer its size (and one byte more, to see it
        // grow): no 1 MiB mapping made and unmapped, and no read-ahead advice, for each of
        // thousands of small files.
        let capacity = expectedSize < UInt64(chunkSize) ? Int(expectedSize) + 1 : chunkSize
        if capacity == chunkSize { file.adviseSequentialReading() }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 64)
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
