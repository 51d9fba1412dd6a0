internal import CLibArchive

/// Owns one libarchive write handle and bridges its output callback to a Swift sink.
final class ArchiveWriteHandle {
    let pointer: OpaquePointer
    private let sink: (UnsafeRawBufferPointer) throws -> Void
    /// The error the sink threw, kept so `check` can report it instead of libarchive's summary.
    private(set) var sinkError: PayloadError?
    /// True once `open()` succeeded; until then `archive_write_free` has nothing to flush.
    private var isOpen = false
    /// True once the archive was closed (trailer written) or marked failed.
    private var isClosed = false

    /// Allocates a write handle whose output goes to `sink`; throws if libarchive cannot.
    init(sink: @escaping (UnsafeRawBufferPointer) throws -> Void) throws(PayloadError) {
        guard let pointer = archive_write_new() else { throw .libraryUnavailable("a write handle") }
        self.pointer = pointer
        self.sink = sink
    }

    /// True once libarchive called the client closer: its output filter, and the state it
    /// allocated in `archive_write_open`, are released.
    private(set) var clientClosed = false
    /// True once the archive failed: output is dropped, the sink sees nothing more.
    private var discarding = false

    deinit {
        // Freeing an open archive would close it and write a trailer into the sink; a writer
        // abandoned half-way must not look finished, so it is failed first (output dropped).
        fail()
        archive_write_free(pointer)
    }

    /// Turns a status of this handle into success or an error.
    func check(_ status: Int32, _ operation: String, path: String? = nil) throws(PayloadError) {
        try checkArchiveStatus(
            status, archive: pointer, pendingError: sinkError,
            operation: operation, path: path, offset: nil,
            unexplained: "libarchive gave no reason")
    }

    /// Starts the archive: from here on every byte libarchive produces reaches the sink.
    func open() throws(PayloadError) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        let status = archive_write_open(
            pointer, context, nil,
            { _, context, buffer, length in
                guard let context else { return -1 }
                let handle = Unmanaged<ArchiveWriteHandle>.fromOpaque(context).takeUnretainedValue()
                return handle.deliver(UnsafeRawBufferPointer(start: buffer, count: length))
            },
            { _, context in
                guard let context else { return ARCHIVE_OK }
                Unmanaged<ArchiveWriteHandle>.fromOpaque(context).takeUnretainedValue().clientClosed = true
                return ARCHIVE_OK
            })
        try check(status, "archive_write_open")
        isOpen = true
    }

    /// Writes the trailer and flushes; the handle accepts nothing afterwards.
    func close() throws(PayloadError) {
        isClosed = true
        try check(archive_write_close(pointer), "archive_write_close")
    }

    /// Marks the archive failed so nothing more (in particular no trailer) reaches the sink.
    ///
    /// Not `archive_write_fail`: libarchive 3.6 (Debian 12) then skips the close in
    /// `archive_write_free` and leaks the output filter's state (libarchive issue 1568, fixed by
    /// pull request 2729, merged in September 2025). Instead the output is dropped and the archive closed, which
    /// runs the filters' close functions; the trailer libarchive writes meanwhile goes nowhere.
    func fail() {
        discarding = true
        if isOpen && !isClosed { _ = archive_write_close(pointer) }
        isClosed = true
    }

    /// Hands libarchive's output to the sink; returns the byte count, or -1 after a sink error.
    private func deliver(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard sinkError == nil, !discarding else { return -1 }
        do {
            try sink(bytes)
            return bytes.count
        } catch let error as PayloadError {
            sinkError = error
        } catch {
            sinkError = .outputFailed(String(describing: error))
        }
        return -1
    }
}
