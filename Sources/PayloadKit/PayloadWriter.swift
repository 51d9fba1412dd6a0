internal import IAPCompression

/// A compressed cpio payload writer = CpioWriter → ParallelGzipEncoder (libdeflate on every core) → sink,
/// or CpioWriter → PbzxEncoder (chunks of xz, liblzma) → sink.
///
/// The gzip stream is a sequence of members, one per 1 MiB of cpio (standard gzip, RFC 1952 §2.2),
/// compressed in parallel; already-compressed blocks are stored. Deterministic: the same entries at
/// the same level always give the same bytes, however the threads run.
package final class PayloadWriter {
    /// pkgbuild's pbzx chunk size, 16 MiB (the default of `init(pbzxChunkSize:sink:)`).
    package static let pbzxChunkSize = 16 << 20

    private let cpio: CpioWriter
    private let finishEncoder: () throws -> Void

    /// Starts a payload compressed at libdeflate `level` (0...12; 7 matches zlib's 6 in size)
    /// whose gzip bytes go to `sink`, on `workers` threads (0: one per core).
    package init(
        level: Int32 = 7, workers: Int = 0,
        sink: @escaping (UnsafeRawBufferPointer) throws -> Void
    ) throws(PayloadError) {
        guard BlockCompressor.levels.contains(level) else { throw .invalidCompressionLevel(level) }
        let encoder = ParallelGzipEncoder(
            level: level, workers: workers > 0 ? workers : ParallelGzipEncoder.defaultWorkers, sink: sink)
        finishEncoder = encoder.finish
        cpio = try CpioWriter { raw in
            try Self.compress { try encoder.write(raw) }
        }
    }

    /// Starts a pbzx payload (what `pkgbuild --compression latest` writes): the cpio cut into
    /// `pbzxChunkSize`-byte chunks (pkgbuild's 16 MiB by default), each xz-compressed, or stored
    /// when xz would not make it smaller.
    package init(
        pbzxChunkSize: Int = PayloadWriter.pbzxChunkSize, sink: @escaping (UnsafeRawBufferPointer) throws -> Void
    ) throws(PayloadError) {
        guard pbzxChunkSize > 0 else { throw .invalidCompressionLevel(Int32(clamping: pbzxChunkSize)) }
        let encoder = PbzxEncoder(chunkSize: pbzxChunkSize, sink: sink)
        finishEncoder = encoder.finish
        cpio = try CpioWriter { raw in try encoder.write(raw) }
    }

    /// Adds a directory entry (`mode` holds permission bits only, e.g. 0o755).
    package func addDirectory(path: String, mode: UInt16, modificationTime: Int64) throws(PayloadError) {
        try cpio.addDirectory(path: path, mode: mode, modificationTime: modificationTime)
    }

    /// Adds a symbolic link whose data is `target`, stored exactly as given.
    package func addSymlink(path: String, target: String, mode: UInt16, modificationTime: Int64) throws(PayloadError) {
        try cpio.addSymlink(path: path, target: target, mode: mode, modificationTime: modificationTime)
    }

    /// Header first, then `body` is called with a writer closure that must be fed exactly `size` bytes.
    package func addFile(
        path: String, mode: UInt16, modificationTime: Int64, size: UInt64,
        body: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void
    ) throws(PayloadError) {
        try cpio.addFile(path: path, mode: mode, modificationTime: modificationTime, size: size, body: body)
    }

    /// Writes the cpio trailer and ends the gzip stream. The writer accepts nothing afterwards.
    package func finish() throws(PayloadError) {
        try cpio.finish()
        do {
            try Self.compress { try finishEncoder() }
        } catch let error as PayloadError {
            throw error
        } catch {
            throw .outputFailed(String(describing: error))
        }
    }

    /// Runs an encoder step, naming compression failures as such.
    private static func compress(_ step: () throws -> Void) throws {
        do {
            try step()
        } catch let error as ZlibError {
            throw PayloadError.compressionFailed(error.description)
        }
    }
}
