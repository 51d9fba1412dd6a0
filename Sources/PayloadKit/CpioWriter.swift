internal import CLibArchive

/// Writes a cpio odc archive through libarchive (no libarchive compression filter); raw cpio bytes go to `sink`.
///
/// Output is reproducible: inode numbers run 1, 2, 3… in the order entries are added (libarchive's
/// odc writer renumbers any non-zero inode the same way, so we set and it keeps them), dev and rdev 0,
/// uid and gid 0, nlink 1 for every entry (also directories, as btrfs reports them: cpio readers,
/// libarchive's among them, track every entry with nlink > 1 as a possible hard link in a list they
/// scan for each such entry, which makes 20,000 folders cost seconds), mtimes as given, paths
/// exactly as given. No block padding:
/// the output ends right after the `TRAILER!!!` entry.
package final class CpioWriter {
    let handle: ArchiveWriteHandle
    private let entry: ArchiveEntryHandle
    private var nextInode: UInt64 = 1
    private var failure: PayloadError?
    private var isFinished = false

    /// Starts an odc archive whose raw bytes are handed to `sink` as libarchive produces them.
    package init(sink: @escaping (UnsafeRawBufferPointer) throws -> Void) throws(PayloadError) {
        handle = try ArchiveWriteHandle(sink: sink)
        entry = try ArchiveEntryHandle()
        try handle.check(archive_write_set_format_cpio_odc(handle.pointer), "archive_write_set_format_cpio_odc")
        // No blocking: every write goes straight to the sink and the last block is not padded.
        try handle.check(archive_write_set_bytes_per_block(handle.pointer, 0), "archive_write_set_bytes_per_block")
        try handle.check(
            archive_write_set_bytes_in_last_block(handle.pointer, 1), "archive_write_set_bytes_in_last_block")
        try handle.open()
    }

    /// Adds a directory entry (`mode` holds permission bits only, e.g. 0o755).
    package func addDirectory(path: String, mode: UInt16, modificationTime: Int64) throws(PayloadError) {
        try guarded { () throws(PayloadError) in
            try writeHeader(
                path: path, type: FileTypeBits.directory, mode: mode, nlink: 1,
                modificationTime: modificationTime, size: 0, symlinkTarget: nil)
        }
    }

    /// Adds a symbolic link whose data is `target`, stored exactly as given.
    package func addSymlink(path: String, target: String, mode: UInt16, modificationTime: Int64) throws(PayloadError) {
        try guarded { () throws(PayloadError) in
            guard !target.isEmpty, !target.utf8.contains(0) else {
                throw .invalidLinkTarget(path: path, target: target)
            }
            try writeHeader(
                path: path, type: FileTypeBits.symlink, mode: mode, nlink: 1,
                modificationTime: modificationTime, size: 0, symlinkTarget: target)
        }
    }

    /// Header first, then `body` is called with a writer closure that must be fed exactly `size` bytes.
    package func addFile(
        path: String, mode: UInt16, modificationTime: Int64, size: UInt64,
        body: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void
    ) throws(PayloadError) {
        try guarded { () throws(PayloadError) in
            guard size <= CpioLimits.maxOctal11 else {
                throw .fileTooLarge(path: path, size: size, limit: CpioLimits.maxOctal11)
            }
            try writeHeader(
                path: path, type: FileTypeBits.regular, mode: mode, nlink: 1,
                modificationTime: modificationTime, size: size, symlinkTarget: nil)
            var delivered: UInt64 = 0
            do {
                try body { chunk in
                    let remaining = size - delivered
                    guard UInt64(chunk.count) <= remaining else {
                        throw PayloadError.sizeMismatch(
                            path: path, declared: size,
                            delivered: delivered + UInt64(chunk.count))
                    }
                    try self.writeData(chunk, path: path)
                    delivered += UInt64(chunk.count)
                }
            } catch let error as PayloadError {
                throw error
            } catch {
                throw .dataSourceFailed(path: path, reason: String(describing: error))
            }
            guard delivered == size else {
                throw .sizeMismatch(path: path, declared: size, delivered: delivered)
            }
            try handle.check(archive_write_finish_entry(handle.pointer), "archive_write_finish_entry", path: path)
        }
    }

    /// Ends the archive: writes the `TRAILER!!!` entry. The writer accepts nothing afterwards.
    package func finish() throws(PayloadError) {
        try guarded { () throws(PayloadError) in
            isFinished = true
            try handle.close()
        }
    }

    /// Runs one public operation; the first error poisons the writer so a broken archive is never continued.
    private func guarded(_ operation: () throws(PayloadError) -> Void) throws(PayloadError) {
        if let failure { throw failure }
        guard !isFinished else { throw .writerFinished }
        do {
            try operation()
        } catch {
            failure = error
            handle.fail()
            throw error
        }
    }

    /// Validates the fields, fills the entry and writes its header.
    private func writeHeader(
        path: String, type: UInt32, mode: UInt16, nlink: UInt32,
        modificationTime: Int64, size: UInt64, symlinkTarget: String?
    ) throws(PayloadError) {
        try validate(path: path, mode: mode, modificationTime: modificationTime)
        // odc's inode field has six octal digits (262,143). Every entry has nlink 1, and readers match
        // entries by inode only when nlink > 1 (libarchive, GNU cpio, iapkg), so past that number an
        // entry gets inode 0, which libarchive writes as it is: a Payload holds any number of entries.
        let inode = nextInode <= CpioLimits.maxOctal6 ? nextInode : 0
        let pointer = entry.pointer
        entry.clear()
        archive_entry_copy_pathname(pointer, path)
        archive_entry_set_mode(pointer, type | UInt32(mode))
        archive_entry_set_uid(pointer, 0)
        archive_entry_set_gid(pointer, 0)
        archive_entry_set_dev(pointer, 0)
        archive_entry_set_rdev(pointer, 0)
        archive_entry_set_ino64(pointer, Int64(inode))
        archive_entry_set_nlink(pointer, nlink)
        archive_entry_set_mtime(pointer, Int(modificationTime), 0)
        archive_entry_set_size(pointer, Int64(size))
        if let symlinkTarget { archive_entry_copy_symlink(pointer, symlinkTarget) }
        try handle.check(archive_write_header(handle.pointer, pointer), "archive_write_header", path: path)
        nextInode += 1
    }

    /// Checks what the odc header can hold before libarchive sees it.
    private func validate(path: String, mode: UInt16, modificationTime: Int64) throws(PayloadError) {
        guard !path.isEmpty else { throw .invalidPath(path, reason: "the path is empty") }
        guard !path.utf8.contains(0) else { throw .invalidPath(path, reason: "the path contains a NUL byte") }
        // namesize counts the terminating NUL and has 6 octal digits.
        guard UInt64(path.utf8.count) < CpioLimits.maxOctal6 else {
            throw .invalidPath(path, reason: "the path is longer than \(CpioLimits.maxOctal6 - 1) bytes")
        }
        guard mode & ~CpioLimits.permissionMask == 0 else { throw .invalidMode(path: path, mode: mode) }
        guard modificationTime >= 0, UInt64(modificationTime) <= CpioLimits.maxOctal11 else {
            throw .invalidModificationTime(path: path, seconds: modificationTime)
        }
    }

    /// Passes file bytes to libarchive, which may accept them in parts.
    private func writeData(_ chunk: UnsafeRawBufferPointer, path: String) throws(PayloadError) {
        guard let base = chunk.baseAddress else { return }
        var offset = 0
        while offset < chunk.count {
            let written = archive_write_data(handle.pointer, base + offset, chunk.count - offset)
            if written < 0 { try handle.check(Int32(clamping: written), "archive_write_data", path: path) }
            guard written > 0 else {
                throw .archive(
                    operation: "archive_write_data", path: path, offset: nil,
                    message: "libarchive accepted no file data")
            }
            offset += written
        }
    }
}
