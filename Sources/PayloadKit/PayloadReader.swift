internal import CLibArchive

/// Reads a compressed cpio payload from a source of compressed bytes.
///
/// Decodes gzip, bzip2 or xz itself (PayloadDecompressor, told apart by the first bytes; several
/// members or streams may follow each other, anything else after the last one is an error) under a
/// cap on decoded bytes, and feeds the raw cpio to
/// libarchive's cpio reader (odc, newc and newc-crc are accepted). `nextEntry()` returns nil only
/// after the whole stream was decoded and everything after `TRAILER!!!` was found to be NUL padding.
/// The first error ends the reader: later calls throw it again.
public final class PayloadReader {
    private let stream: DecodedStream
    private let handle: ArchiveReadHandle
    private var failure: PayloadError?
    /// The path of the entry whose data `readData` returns, nil when there is none.
    private var currentPath: String?
    private var reachedEnd = false

    /// Opens a payload; `source` fills the buffer it is given and returns the count, 0 at the end.
    public init(maxDecodedBytes: UInt64,
                source: @escaping (UnsafeMutableRawBufferPointer) throws -> Int) throws(PayloadError) {
        stream = DecodedStream(decoder: PayloadDecompressor(maxDecodedBytes: maxDecodedBytes, source: source))
        handle = try ArchiveReadHandle(stream: stream)
        try handle.check(archive_read_support_format_cpio(handle.pointer), "archive_read_support_format_cpio")
        try handle.open()
    }

    /// Decoded (raw cpio) bytes produced so far.
    public var decodedBytes: UInt64 { stream.decodedBytes }

    /// The next entry's header, or nil after the trailer; skips any unread data of the current entry.
    public func nextEntry() throws(PayloadError) -> PayloadEntry? {
        try guarded { () throws(PayloadError) -> PayloadEntry? in
            guard !reachedEnd else { return nil }
            currentPath = nil
            var entryPointer: OpaquePointer?
            let status = archive_read_next_header(handle.pointer, &entryPointer)
            if status == ARCHIVE_EOF {
                try handle.check(ARCHIVE_OK, "archive_read_next_header")
                guard let trailerEnd = handle.position else {
                    throw .archive(operation: "archive_filter_bytes", path: nil, offset: nil,
                                   message: "no position after the trailer")
                }
                try stream.verifyPadding(from: trailerEnd)
                reachedEnd = true
                return nil
            }
            try handle.check(status, "archive_read_next_header")
            let headerOffset = UInt64(clamping: archive_read_header_position(handle.pointer))
            guard let entryPointer else {
                throw .invalidEntry(headerOffset: headerOffset, reason: "libarchive returned no entry")
            }
            try checkFormat()
            let entry = try PayloadEntry(reading: entryPointer, headerOffset: headerOffset)
            currentPath = entry.path
            return entry
        }
    }

    /// Reads the current entry's data into `buffer`; returns 0 at its end (or for an empty buffer).
    public func readData(into buffer: UnsafeMutableRawBufferPointer) throws(PayloadError) -> Int {
        try guarded { () throws(PayloadError) -> Int in
            guard let path = currentPath else { throw .noCurrentEntry }
            guard let base = buffer.baseAddress, !buffer.isEmpty else { return 0 }
            let read = archive_read_data(handle.pointer, base, buffer.count)
            if read < 0 { try handle.check(Int32(clamping: read), "archive_read_data", path: path) }
            try handle.check(ARCHIVE_OK, "archive_read_data", path: path)
            return read
        }
    }

    /// Accepts the cpio variants a component payload may use.
    private func checkFormat() throws(PayloadError) {
        let format = archive_format(handle.pointer)
        guard format == ARCHIVE_FORMAT_CPIO_POSIX || format == ARCHIVE_FORMAT_CPIO_SVR4_NOCRC
                || format == ARCHIVE_FORMAT_CPIO_SVR4_CRC else {
            let name = archive_format_name(handle.pointer).map { String(cString: $0) } ?? "format \(format)"
            throw .unsupportedCpioFormat(name)
        }
    }

    /// Runs one public operation; the first error is remembered and thrown by every later call.
    private func guarded<Result>(_ operation: () throws(PayloadError) -> Result) throws(PayloadError) -> Result {
        if let failure { throw failure }
        do {
            return try operation()
        } catch {
            failure = error
            currentPath = nil
            throw error
        }
    }
}
