/// Reads a compressed cpio payload from a source of compressed bytes.
///
/// Decodes gzip, bzip2, xz or pbzx itself (PayloadDecompressor, told apart by the first bytes; several
/// members or streams may follow each other, anything else after the last one is an error) under a
/// cap on decoded bytes, and parses the cpio strictly and in one pass: odc,
/// newc and newc-crc, one format per payload, every header field a digit of its radix, names
/// NUL-terminated and bounded, newc padding NUL, newc-crc sums checked. Hard links are found in
/// linear time: a table keyed by (dev, ino) holds only non-directories whose link count is above 1.
/// `nextEntry()` returns nil only after the whole stream was decoded and everything after
/// `TRAILER!!!` was found to be NUL padding. The first error ends the reader: later calls throw it again.
package final class PayloadReader {
    /// The entry whose data `readData` returns.
    private struct Current {
        var path: String
        var headerOffset: UInt64
        var remaining: UInt64
        var check: UInt32
        var sum: UInt32 = 0
    }

    /// A file's identity for hard-link matching.
    private struct LinkKey: Hashable {
        var dev: UInt64
        var ino: UInt64
    }

    private let stream: DecodedStream
    private let cursor: CpioCursor
    private var format: CpioFormat?
    private var failure: PayloadError?
    private var current: Current?
    private var reachedEnd = false
    /// The first path seen for each multiply-linked non-directory.
    private var firstLinks: [LinkKey: String] = [:]
    private var scratch: [UInt8] = []

    /// Opens a payload; `source` fills the buffer it is given and returns the count, 0 at the end.
    /// `headOnly` is for a caller that reads only the first entries: gzip is then decoded only as far
    /// as they need, not a whole member (iapkg's are 1 MiB) at a time. With `decodingAhead` the
    /// decompression runs on a thread of its own, ahead of the parsing: `source` is then called
    /// on that thread (never on two at once), and not after the reader is gone.
    package init(
        maxDecodedBytes: UInt64, headOnly: Bool = false, decodingAhead: Bool = false,
        source: @escaping (UnsafeMutableRawBufferPointer) throws -> Int
    ) throws(PayloadError) {
        stream = DecodedStream(
            decoder: PayloadDecompressor(maxDecodedBytes: maxDecodedBytes, wholeMembers: !headOnly, source: source),
            decodingAhead: decodingAhead)
        cursor = CpioCursor(stream: stream)
        scratch.reserveCapacity(256)
        _ = try cursor.atEnd()  // decode the first block now: a stream that is not compressed cpio fails here
    }

    /// Decoded (raw cpio) bytes produced so far.
    package var decodedBytes: UInt64 { stream.decodedBytes }

    /// The next entry's header, or nil after the trailer; skips any unread data of the current entry.
    package func nextEntry() throws(PayloadError) -> PayloadEntry? {
        try guarded { () throws(PayloadError) -> PayloadEntry? in
            guard !reachedEnd else { return nil }
            try finishCurrent()
            return try readHeader()
        }
    }

    /// Reads the current entry's data into `buffer`; returns 0 at its end (or for an empty buffer).
    package func readData(into buffer: UnsafeMutableRawBufferPointer) throws(PayloadError) -> Int {
        try guarded { () throws(PayloadError) -> Int in
            guard var entry = current else { throw .noCurrentEntry }
            guard entry.remaining > 0, !buffer.isEmpty else { return 0 }
            let count = try cursor.copy(into: buffer, limit: Int(clamping: entry.remaining))
            guard count > 0 else {
                throw .cpioEndsEarly(offset: cursor.offset, headerOffset: entry.headerOffset, path: entry.path)
            }
            if format == .newcCRC {
                entry.sum = Self.sum(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), from: entry.sum)
            }
            entry.remaining -= UInt64(count)
            current = entry
            return count
        }
    }

    /// Hands the current entry's next run of data to `visit` where it was decoded (no copy; valid only
    /// during the call); returns its length, 0 at the entry's end. Checked as `readData` checks.
    package func visitData(_ visit: (UnsafeRawBufferPointer) -> Void) throws(PayloadError) -> Int {
        try guarded { () throws(PayloadError) -> Int in
            guard var entry = current else { throw .noCurrentEntry }
            guard entry.remaining > 0 else { return 0 }
            let crc = format == .newcCRC
            var sum = entry.sum
            let count = try cursor.skip(entry.remaining) { bytes in
                if crc { sum = Self.sum(bytes, from: sum) }
                visit(bytes)
            }
            guard count > 0 else {
                throw .cpioEndsEarly(offset: cursor.offset, headerOffset: entry.headerOffset, path: entry.path)
            }
            entry.sum = sum
            entry.remaining -= count
            current = entry
            return Int(count)
        }
    }

    /// Reads one header and its name (and a symlink's target); nil at the trailer.
    private func readHeader() throws(PayloadError) -> PayloadEntry? {
        let headerOffset = cursor.offset
        scratch.removeAll(keepingCapacity: true)
        guard try cursor.read(6, into: &scratch) else {
            throw .cpioEndsEarly(offset: cursor.offset, headerOffset: nil, path: nil)
        }
        let format: CpioFormat
        do {
            format = try CpioFormat.detect(scratch[...], headerOffset: headerOffset)
        } catch .invalidEntry(_, let reason) where headerOffset == 0 {
            throw .unsupportedCpioFormat("data that is not cpio (\(reason))")
        }
        if let first = self.format, first != format {
            throw .invalidEntry(
                headerOffset: headerOffset,
                reason: "it is \(format.name), but the payload began as \(first.name); one payload uses one format")
        }
        self.format = format
        guard try cursor.read(format.headerSize - 6, into: &scratch) else {
            throw .cpioEndsEarly(offset: cursor.offset, headerOffset: headerOffset, path: nil)
        }
        let header = try CpioHeader(scratch, format: format, headerOffset: headerOffset)
        let path = try readName(header, headerOffset: headerOffset)
        if path == "TRAILER!!!" {
            try stream.verifyPadding(from: cursor.offset)
            reachedEnd = true
            current = nil
            return nil
        }
        try skipPadding(headerOffset: headerOffset, path: path)
        current = Current(path: path, headerOffset: headerOffset, remaining: header.fileSize, check: header.check)
        let type = header.mode & FileTypeBits.mask
        var hardlinkTarget: String?
        if type != FileTypeBits.directory && header.nlink > 1 {
            let key = LinkKey(dev: header.dev, ino: header.ino)
            if let first = firstLinks[key] { hardlinkTarget = first } else { firstLinks[key] = path }
        }
        let linkTarget =
            type == FileTypeBits.symlink ? try readLinkTarget(header, headerOffset: headerOffset, path: path) : nil
        return PayloadEntry(
            path: path,
            kind: PayloadEntry.kind(mode: header.mode, linkTarget: linkTarget, hardlinkTarget: hardlinkTarget),
            mode: header.mode, uid: header.uid, gid: header.gid, size: header.fileSize,
            modificationTime: header.mtime, linkTarget: linkTarget, hardlinkTarget: hardlinkTarget,
            inode: header.ino, nlink: header.nlink, headerOffset: headerOffset)
    }

    /// Reads the NUL-terminated name that follows a header.
    private func readName(_ header: CpioHeader, headerOffset: UInt64) throws(PayloadError) -> String {
        func invalid(_ reason: String) -> PayloadError { .invalidEntry(headerOffset: headerOffset, reason: reason) }
        guard header.nameSize >= 2 else {
            throw invalid("its namesize is \(header.nameSize); a name needs at least one byte and its NUL")
        }
        guard header.nameSize <= CpioLimits.maxNameBytes else {
            throw invalid(
                "its namesize is \(header.nameSize); names longer than \(CpioLimits.maxNameBytes - 1) bytes are refused"
            )
        }
        scratch.removeAll(keepingCapacity: true)
        guard try cursor.read(Int(header.nameSize), into: &scratch) else {
            throw .cpioEndsEarly(offset: cursor.offset, headerOffset: headerOffset, path: nil)
        }
        guard scratch.last == 0 else {
            throw invalid("its name is not NUL-terminated within its namesize \(header.nameSize)")
        }
        let name = scratch.dropLast()
        guard !name.contains(0) else {
            throw invalid("its name holds a NUL byte before its end (namesize \(header.nameSize))")
        }
        guard let path = String(validating: name, as: UTF8.self) else {
            throw .invalidEntryName(headerOffset: headerOffset, reason: "its name is not valid UTF-8")
        }
        return path
    }

    /// Reads a symlink's body, its target.
    private func readLinkTarget(_ header: CpioHeader, headerOffset: UInt64, path: String) throws(PayloadError) -> String
    {
        func invalid(_ reason: String) -> PayloadError { .invalidEntry(headerOffset: headerOffset, reason: reason) }
        guard header.fileSize <= CpioLimits.maxLinkTargetBytes else {
            throw invalid(
                "its symlink target is \(header.fileSize) bytes; at most \(CpioLimits.maxLinkTargetBytes) are read")
        }
        scratch.removeAll(keepingCapacity: true)
        guard try cursor.read(Int(header.fileSize), into: &scratch) else {
            throw .cpioEndsEarly(offset: cursor.offset, headerOffset: headerOffset, path: path)
        }
        if format == .newcCRC {
            // GNU cpio computes the check only for regular files (copyout.c: c_chksum = 0, then
            // read_for_checksum for CP_IFREG): its symlinks carry 0, and GNU cpio -i and bsdcpio
            // read them. So a link's check of 0 stands for "none"; any other value must be the sum.
            current?.sum = header.check == 0 ? 0 : scratch.withUnsafeBytes { Self.sum($0, from: 0) }
        }
        current?.remaining = 0
        guard !scratch.contains(0) else { throw invalid("its symlink target contains a NUL byte") }
        guard let target = String(validating: scratch, as: UTF8.self) else {
            throw invalid("its symlink target is not valid UTF-8")
        }
        return target
    }

    /// Skips the current entry's unread data, checks its newc-crc sum and its padding.
    private func finishCurrent() throws(PayloadError) {
        guard var entry = current else { return }
        let crc = format == .newcCRC
        while entry.remaining > 0 {
            var sum = entry.sum
            let skipped = try cursor.skip(entry.remaining) { bytes in if crc { sum = Self.sum(bytes, from: sum) } }
            guard skipped > 0 else {
                throw .cpioEndsEarly(offset: cursor.offset, headerOffset: entry.headerOffset, path: entry.path)
            }
            entry.sum = sum
            entry.remaining -= skipped
        }
        current = nil
        if crc && entry.sum != entry.check {
            throw .invalidEntry(
                headerOffset: entry.headerOffset,
                reason: "its data sums to \(entry.sum) but its newc-crc check field says \(entry.check) (\(entry.path))"
            )
        }
        try skipPadding(headerOffset: entry.headerOffset, path: entry.path)
    }

    /// Passes over newc alignment padding, which must be NUL bytes.
    private func skipPadding(headerOffset: UInt64, path: String) throws(PayloadError) {
        guard let alignment = format?.alignment, alignment > 1 else { return }
        var missing = (alignment - cursor.offset % alignment) % alignment
        while missing > 0 {
            let start = cursor.offset
            var clean = true
            let skipped = try cursor.skip(missing) { bytes in clean = clean && !bytes.contains { $0 != 0 } }
            guard skipped > 0 else {
                throw .cpioEndsEarly(offset: cursor.offset, headerOffset: headerOffset, path: path)
            }
            guard clean else {
                throw .invalidEntry(
                    headerOffset: headerOffset,
                    reason: "its alignment padding at decoded byte \(start) is not NUL bytes (\(path))")
            }
            missing -= skipped
        }
    }

    /// The newc-crc check: the 32-bit sum of the data bytes.
    private static func sum(_ bytes: UnsafeRawBufferPointer, from start: UInt32) -> UInt32 {
        var sum = start
        for byte in bytes { sum &+= UInt32(byte) }
        return sum
    }

    /// Runs one public operation; the first error is remembered and thrown by every later call.
    private func guarded<Result>(_ operation: () throws(PayloadError) -> Result) throws(PayloadError) -> Result {
        if let failure { throw failure }
        do {
            return try operation()
        } catch {
            failure = error
            current = nil
            throw error
        }
    }
}
