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

    deinit {
        // Freeing an open archive would close it and write a trailer into the sink; a writer
        // abandoned half-way must not look finished, so mark it failed first.
        if isOpen && !isClosed { archive_write_fail(pointer) }
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
            }, nil)
        try check(status, "archive_write_open")
        isOpen = true
    }

    /// Writes the trailer and flushes; the handle accepts nothing afterwards.
    func close() throws(PayloadError) {
        isClosed = true
        try check(archive_write_close(pointer), "archive_write_close")
    }

    /// Marks the archive failed so nothing more (in particular no trailer) is written.
    func fail() {
        if isOpen && !isClosed { archive_write_fail(pointer) }
        isClosed = true
    }

    /// Hands libarchive's output to the sink; returns the byte count, or -1 after a sink error.
    private func deliver(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard sinkError == nil else { return -1 }
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
