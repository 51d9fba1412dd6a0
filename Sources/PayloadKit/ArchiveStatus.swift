internal import CLibArchive

/// The one place a libarchive status becomes success or a `PayloadError`.
///
/// An error a callback stored (`pendingError`: our sink or source failed) wins over libarchive's
/// generic message. Warnings count as failures: libarchive warns, for example, when its cpio
/// reader skips garbage to find the next header, and a payload reader must not skip anything.
/// `unexplained` is the message used when libarchive fails without setting one.
func checkArchiveStatus(
    _ status: Int32, archive: OpaquePointer, pendingError: PayloadError?,
    operation: String, path: String?, offset: UInt64?, unexplained: String
) throws(PayloadError) {
    if let pendingError { throw pendingError }
    guard status != ARCHIVE_OK else { return }
    let message =
        archive_error_string(archive).map { String(cString: $0) }
        ?? "\(unexplained) (status \(status))"
    throw PayloadError.archive(operation: operation, path: path, offset: offset, message: message)
}
