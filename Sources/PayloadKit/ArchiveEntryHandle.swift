internal import CLibArchive

/// Owns one `struct archive_entry` (libarchive's header record).
final class ArchiveEntryHandle {
    let pointer: OpaquePointer

    /// Allocates an empty entry; throws if libarchive cannot.
    init() throws(PayloadError) {
        guard let pointer = archive_entry_new() else { throw .libraryUnavailable("an archive entry") }
        self.pointer = pointer
    }

    deinit { archive_entry_free(pointer) }

    /// Resets every field so the entry can describe the next header.
    func clear() { archive_entry_clear(pointer) }
}
