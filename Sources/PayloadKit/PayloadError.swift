/// Everything that can go wrong while writing or reading a component Payload (gzip'd cpio).
package enum PayloadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// libarchive could not allocate a handle or an entry (out of memory).
    case libraryUnavailable(String)
    /// libarchive reported a failure while writing; `message` is its `archive_error_string`.
    case archive(operation: String, path: String?, offset: UInt64?, message: String)

    /// A path given to the writer cannot be stored (empty, NUL byte, too long).
    case invalidPath(String, reason: String)
    /// Permission bits beyond 0o7777 were given for an entry.
    case invalidMode(path: String, mode: UInt16)
    /// A modification time outside what the odc header can hold.
    case invalidModificationTime(path: String, seconds: Int64)
    /// A file larger than the odc header can describe.
    case fileTooLarge(path: String, size: UInt64, limit: UInt64)
    /// A symlink target that is empty or contains a NUL byte.
    case invalidLinkTarget(path: String, target: String)
    /// A file body that did not deliver exactly the declared size.
    case sizeMismatch(path: String, declared: UInt64, delivered: UInt64)
    /// The closure producing a file's bytes threw.
    case dataSourceFailed(path: String, reason: String)
    /// The sink taking the archive's output threw.
    case outputFailed(String)
    /// A compression level outside 0...9.
    case invalidCompressionLevel(Int32)
    /// zlib failed while compressing.
    case compressionFailed(String)
    /// The writer was used after `finish()`.
    case writerFinished

    /// The source of compressed bytes threw or returned an impossible count.
    case inputFailed(String)
    /// The payload does not start with a gzip member (magic 1f 8b).
    case notGzip(offset: UInt64)
    /// zlib rejected the compressed data at this compressed byte offset.
    case corruptGzip(offset: UInt64, reason: String)
    /// The input ended inside a gzip member.
    case truncatedGzip(offset: UInt64)
    /// Bytes after the last gzip member that are not another gzip member.
    case junkAfterGzip(offset: UInt64)
    /// The payload starts with bytes that are not gzip, bzip2 or xz (the first few, up to 6).
    case unrecognizedCompression(leadingBytes: [UInt8])
    /// libbz2 or liblzma rejected the `format` data at this compressed byte offset.
    case corruptCompressed(format: String, offset: UInt64, reason: String)
    /// The input ended inside a bzip2 or xz stream.
    case truncatedCompressed(format: String, offset: UInt64)
    /// Bytes after the last bzip2 or xz stream that do not start another stream of that format.
    case junkAfterCompressed(format: String, offset: UInt64)
    /// A pbzx Payload whose framing is broken, at this byte offset of the Payload.
    case malformedPbzx(PbzxFault, offset: UInt64)
    /// Decoding would pass the cap on decoded bytes (a decompression bomb, or a cap set too low).
    case decompressionBomb(limit: UInt64, compressedOffset: UInt64)
    /// Non-NUL bytes after the cpio `TRAILER!!!` entry, at this decoded offset.
    case dataAfterTrailer(offset: UInt64)
    /// A cpio variant other than odc, newc or newc-crc.
    case unsupportedCpioFormat(String)
    /// An entry whose header is malformed or whose fields cannot be represented.
    case invalidEntry(headerOffset: UInt64, reason: String)
    /// An entry whose name is not valid UTF-8 (`reason` says so), a name rule rather than a malformed Payload.
    case invalidEntryName(headerOffset: UInt64, reason: String)
    /// The decoded cpio ends at `offset`, inside the entry whose header starts at `headerOffset`
    /// (nil: where the next header or `TRAILER!!!` should start).
    case cpioEndsEarly(offset: UInt64, headerOffset: UInt64?, path: String?)
    /// `readData` was called with no current entry.
    case noCurrentEntry

    package var description: String {
        switch self {
        case .libraryUnavailable(let what):
            "libarchive could not create \(what) (out of memory?)"
        case .archive(let operation, let path, let offset, let message):
            "libarchive \(operation) failed" + (path.map { " for \($0)" } ?? "")
                + (offset.map { " at decoded cpio byte \($0)" } ?? "") + ": \(message)"
        case .invalidPath(let path, let reason):
            "cannot store path \(path.debugDescription) in the payload: \(reason)"
        case .invalidMode(let path, let mode):
            "mode 0o\(String(mode, radix: 8)) of \(path) has bits beyond 0o7777; give permission bits only"
        case .invalidModificationTime(let path, let seconds):
            "modification time \(seconds) of \(path) is outside 0...\(CpioLimits.maxOctal11) (odc holds 11 octal digits)"
        case .fileTooLarge(let path, let size, let limit):
            "\(path) is \(size) bytes; an odc payload entry holds at most \(limit) bytes"
        case .invalidLinkTarget(let path, let target):
            "symlink \(path) has an unusable target \(target.debugDescription): it must be non-empty without NUL bytes"
        case .sizeMismatch(let path, let declared, let delivered):
            "\(path) was declared as \(declared) bytes but its body delivered \(delivered)"
        case .dataSourceFailed(let path, let reason):
            "reading the data for \(path) failed: \(reason)"
        case .outputFailed(let reason):
            "writing the payload failed: \(reason)"
        case .invalidCompressionLevel(let level):
            "compression level \(level) is outside 0...9"
        case .compressionFailed(let reason):
            "gzip compression failed: \(reason)"
        case .writerFinished:
            "the payload writer was already finished; start a new one"
        case .inputFailed(let reason):
            "reading the payload failed: \(reason)"
        case .notGzip(let offset):
            "the payload is not gzip data (no gzip magic 1f 8b at byte \(offset))"
        case .corruptGzip(let offset, let reason):
            "the payload's gzip data is corrupt near compressed byte \(offset): \(reason)"
        case .truncatedGzip(let offset):
            "the payload ends inside a gzip stream at compressed byte \(offset); the file is truncated"
        case .junkAfterGzip(let offset):
            "the payload has bytes after its gzip stream at compressed byte \(offset) that are not another gzip member"
        case .unrecognizedCompression(let leading):
            PayloadCompression.describeUnrecognized(leading)
        case .corruptCompressed(let format, let offset, let reason):
            "the payload's \(format) data is corrupt near compressed byte \(offset): \(reason)"
        case .truncatedCompressed(let format, let offset):
            "the payload ends inside a \(format) stream at compressed byte \(offset); the file is truncated"
        case .junkAfterCompressed(let format, let offset):
            "the payload has bytes after its \(format) stream at compressed byte \(offset) that do not start another \(format) stream"
        case .malformedPbzx(let fault, let offset):
            "\(fault) (at byte \(offset) of the Payload); rebuild the package (pkgbuild, or iapkg build --payload-compression pbzx)"
        case .decompressionBomb(let limit, let offset):
            "the payload decodes to more than \(limit) bytes (stopped at compressed byte \(offset)); a decompression bomb or a cap set too low"
        case .dataAfterTrailer(let offset):
            "the payload has data after the cpio TRAILER!!! entry at decoded byte \(offset)"
        case .unsupportedCpioFormat(let name):
            "the payload holds \(name); only cpio odc, newc and newc-crc payloads are read"
        case .invalidEntry(let offset, let reason), .invalidEntryName(let offset, let reason):
            "the cpio entry at decoded byte \(offset) is invalid: \(reason)"
        case .cpioEndsEarly(let offset, let headerOffset, let path):
            if let headerOffset {
                "the cpio data ends at decoded byte \(offset), inside the entry \(path.map { "'\($0)' " } ?? "")whose header starts at decoded byte \(headerOffset); the payload is truncated"
            } else {
                "the cpio data ends at decoded byte \(offset) where another header or TRAILER!!! must start; the payload is truncated or lacks its trailer"
            }
        case .noCurrentEntry:
            "no current entry: call nextEntry() before readData(into:)"
        }
    }
}

extension PayloadError {
    /// The byte of the compressed Payload a framing fault lies at, where the error names one exactly.
    package var payloadOffset: UInt64? {
        switch self {
        case .malformedPbzx(_, let offset): offset
        default: nil
        }
    }
}
