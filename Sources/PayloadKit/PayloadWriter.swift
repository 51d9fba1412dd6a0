internal import IAPCore

/// A gzip'd cpio payload writer = CpioWriter → Deflater(.gzip) → sink.
///
/// Deterministic: zlib's gzip header carries mtime 0, no file name and OS 3 (Unix), so the same
/// entries at the same level always give the same bytes.
public final class PayloadWriter {
    private let cpio: CpioWriter
    private let deflater: Deflater
    private let sink: (UnsafeRawBufferPointer) throws -> Void

    /// Starts a payload compressed at `level` (0...9) whose gzip bytes go to `sink`.
    public init(level: Int32 = 6, sink: @escaping (UnsafeRawBufferPointer) throws -> Void) throws(PayloadError) {
        guard (0...9).contains(level) else { throw .invalidCompressionLevel(level) }
        let deflater = Deflater(format: .gzip, level: level)
        self.deflater = deflater
        self.sink = sink
        cpio = try CpioWriter { raw in
            try Self.compress(raw, finish: false, with: deflater, into: sink)
        }
    }

    /// Adds a directory entry (`mode` holds permission bits only, e.g. 0o755).
    public func addDirectory(path: String, mode: UInt16, modificationTime: Int64) throws(PayloadError) {
        try cpio.addDirectory(path: path, mode: mode, modificationTime: modificationTime)
    }

    /// Adds a symbolic link whose data is `target`, stored exactly as given.
    public func addSymlink(path: String, target: String, mode: UInt16, modificationTime: Int64) throws(PayloadError) {
        try cpio.addSymlink(path: path, target: target, mode: mode, modificationTime: modificationTime)
    }

    /// Header first, then `body` is called with a writer closure that must be fed exactly `size` bytes.
    public func addFile(path: String, mode: UInt16, modificationTime: Int64, size: UInt64,
                        body: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void) throws(PayloadError) {
        try cpio.addFile(path: path, mode: mode, modificationTime: modificationTime, size: size, body: body)
    }

    /// Writes the cpio trailer and ends the gzip stream. The writer accepts nothing afterwards.
    public func finish() throws(PayloadError) {
        try cpio.finish()
        do {
            try Self.compress(UnsafeRawBufferPointer(start: nil, count: 0), finish: true, with: deflater, into: sink)
        } catch let error as PayloadError {
            throw error
        } catch {
            throw .outputFailed(String(describing: error))
        }
    }

    /// Compresses raw cpio bytes, naming zlib's failures as compression failures.
    private static func compress(_ raw: UnsafeRawBufferPointer, finish: Bool, with deflater: Deflater,
                                 into sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        do {
            try deflater.compress(raw, finish: finish, into: sink)
        } catch let error as ZlibError {
            throw PayloadError.compressionFailed(error.description)
        }
    }
}
