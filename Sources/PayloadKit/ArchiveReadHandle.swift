internal import CLibArchive

/// Owns one libarchive read handle and feeds it decoded cpio bytes through its read callback.
final class ArchiveReadHandle {
    let pointer: OpaquePointer
    private let stream: DecodedStream
    /// The error the stream threw, kept so `check` can report it instead of libarchive's summary.
    private(set) var streamError: PayloadError?

    /// Allocates a read handle that will read from `stream`; throws if libarchive cannot.
    init(stream: DecodedStream) throws(PayloadError) {
        guard let pointer = archive_read_new() else { throw .libraryUnavailable("a read handle") }
        self.pointer = pointer
        self.stream = stream
    }

    deinit { archive_read_free(pointer) }

    /// Turns a status of this handle into success or an error that says where libarchive stopped.
    ///
    /// libarchive's cpio reader fails without a message when its read-ahead finds no more bytes;
    /// a failing stream has its own error, so a silent failure means the decoded cpio ended early.
    func check(_ status: Int32, _ operation: String, path: String? = nil) throws(PayloadError) {
        try checkArchiveStatus(status, archive: pointer, pendingError: streamError,
                               operation: operation, path: path, offset: position,
                               unexplained: "the cpio data ends early (truncated payload or missing TRAILER!!!)")
    }

    /// How many decoded bytes libarchive has consumed, if it can say.
    var position: UInt64? { UInt64(exactly: archive_filter_bytes(pointer, 0)) }

    /// Opens the archive; libarchive reads ahead here to recognise the format.
    func open() throws(PayloadError) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        let status = archive_read_open(pointer, context, nil, { _, context, bufferOut in
            guard let context, let bufferOut else { return -1 }
            let handle = Unmanaged<ArchiveReadHandle>.fromOpaque(context).takeUnretainedValue()
            return handle.supply(bufferOut)
        }, nil)
        try check(status, "archive_read_open")
    }

    /// Hands libarchive the next decoded block (0 bytes = end), or -1 after a stream error.
    private func supply(_ bufferOut: UnsafeMutablePointer<UnsafeRawPointer?>) -> Int {
        guard streamError == nil else { return -1 }
        do {
            let block = try stream.nextBlock()
            bufferOut.pointee = block.baseAddress
            return block.count
        } catch {
            streamError = error
            return -1
        }
    }
}
