internal import IAPCompression

/// Writes a cpio stream as pbzx (PackageFormat.md §8 "pbzx Payloads"): "pbzx", the chunk size (big-endian u64), then for
/// every `chunkSize` bytes of input (the last chunk shorter) its size, its stored length and the
/// chunk as one xz stream, or as is when xz would not make it smaller (as pkgbuild does).
///
/// One chunk is held at a time (input and output, 2 × `chunkSize`), so memory stays bounded; the
/// output depends only on the input and the chunk size. A chunk that already looks compressed
/// (libdeflate's quick probe, as the gzip writer uses) is stored without trying xz on it.
final class PbzxEncoder {
    /// pkgbuild's chunk size: 16 MiB.
    static let defaultChunkSize = 16 << 20

    let chunkSize: Int
    private let sink: (UnsafeRawBufferPointer) throws -> Void
    private let input: UnsafeMutableRawBufferPointer
    private let output: UnsafeMutableRawBufferPointer
    private var count = 0
    private var wroteHeader = false
    private let probe = BlockCompressor(level: 1)
    /// Chunks written so far.
    private(set) var chunks = 0

    /// An encoder of `chunkSize`-byte chunks (at least 1) whose bytes go to `sink`.
    init(chunkSize: Int = defaultChunkSize, sink: @escaping (UnsafeRawBufferPointer) throws -> Void) {
        precondition(chunkSize > 0, "a pbzx chunk size is at least 1 byte")
        self.chunkSize = chunkSize
        self.sink = sink
        input = .allocate(byteCount: chunkSize, alignment: 64)
        output = .allocate(byteCount: chunkSize, alignment: 64)
    }

    deinit {
        input.deallocate()
        output.deallocate()
    }

    /// Takes the next bytes of the cpio stream.
    func write(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let take = min(chunkSize - count, bytes.count - offset)
            UnsafeMutableRawBufferPointer(rebasing: input[count..<(count + take)])
                .copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + take)]))
            count += take
            offset += take
            if count == chunkSize { try flush() }
        }
    }

    /// Writes the last (short) chunk; the stream is complete afterwards.
    func finish() throws {
        if count > 0 || chunks == 0 { try flush() }
    }

    /// Writes the header once, then the chunk held.
    private func flush() throws {
        if !wroteHeader {
            try emit(Self.bigEndian(UInt64(chunkSize)), prefix: PbzxDecoder.magic)
            wroteHeader = true
        }
        guard count > 0 else { return }
        let chunk = UnsafeRawBufferPointer(rebasing: input[0..<count])
        // Stored when xz is no smaller: the stored length then equals the size, which marks it.
        let limit = UnsafeMutableRawBufferPointer(rebasing: output[0..<(count - 1)])
        let compressed: Int?
        let worthTrying = count > 1 && !BlockCompressor.looksIncompressible(chunk, probe: probe)
        do { compressed = worthTrying ? try XzBlockEncoder.compress(chunk, into: limit) : nil } catch {
            throw PayloadError.compressionFailed(error.description)
        }
        let body = compressed.map { UnsafeRawBufferPointer(rebasing: output[0..<$0]) } ?? chunk
        try emit(Self.bigEndian(UInt64(count)) + Self.bigEndian(UInt64(body.count)), prefix: [])
        try sink(body)
        count = 0
        chunks += 1
    }

    private func emit(_ bytes: [UInt8], prefix: [UInt8]) throws {
        try (prefix + bytes).withUnsafeBytes { try sink($0) }
    }

    private static func bigEndian(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) }
    }
}
