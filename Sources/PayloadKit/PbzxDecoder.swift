internal import IAPCompression

/// Decodes a pbzx Payload (what `pkgbuild --compression latest` writes, PackageFormat.md §8 "pbzx Payloads") strictly,
/// streamed through fixed buffers, each xz chunk through liblzma.
///
/// It follows the sizes, never a flag bit: every chunk's stated size is at least 1 and at most the
/// header's chunk size, and is checked against the cap on decoded bytes before anything of it is
/// decoded; an xz chunk must be one xz stream that spans exactly its stored length and decodes to
/// exactly its stated size; a chunk whose stored length equals its size is taken as is; a chunk
/// shorter than the chunk size is the last one, and nothing may follow it. Offsets in its errors
/// are bytes of the Payload.
final class PbzxDecoder: BlockDecoding {
    static let magic: [UInt8] = Array("pbzx".utf8)
    /// Compressed bytes held at once.
    static let inputCapacity = 256 << 10
    /// Decoded bytes made by one liblzma call.
    static let outputCapacity = 256 << 10
    private static let xzMagic: [UInt8] = [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]

    /// The chunk being decoded.
    private struct Chunk {
        var index: UInt64
        var size: UInt64
        var length: UInt64
        /// Stored bytes not yet consumed.
        var remainingIn: UInt64
        /// Decoded bytes made so far.
        var produced: UInt64 = 0
        /// Payload offset of its first stored byte.
        var dataOffset: UInt64
        /// nil: stored as is.
        var decoder: (any StreamDecoder)?
    }

    private let source: (UnsafeMutableRawBufferPointer) throws -> Int
    private let maxDecodedBytes: UInt64
    private let input: UnsafeMutableRawBufferPointer
    private let output: UnsafeMutableRawBufferPointer
    private var window = InputWindow()
    private var chunkSize: UInt64 = 0
    private var nextIndex: UInt64 = 0
    private var current: Chunk?
    /// The index and size of a chunk shorter than the chunk size: it must be the last.
    private var shortChunk: (index: UInt64, size: UInt64)?
    /// True once the last chunk ended and the source had nothing more.
    private(set) var isFinished = false
    /// Decoded bytes produced so far.
    private(set) var decodedBytes: UInt64 = 0
    /// Payload offset of the next byte not yet consumed.
    private(set) var compressedOffset: UInt64 = 0

    /// Prepares to decode the bytes `source` yields (from the magic on), up to `maxDecodedBytes`.
    init(maxDecodedBytes: UInt64, source: @escaping (UnsafeMutableRawBufferPointer) throws -> Int) {
        self.maxDecodedBytes = maxDecodedBytes
        self.source = source
        input = .allocate(byteCount: Self.inputCapacity, alignment: 16)
        output = .allocate(byteCount: Self.outputCapacity, alignment: 16)
    }

    deinit {
        input.deallocate()
        output.deallocate()
    }

    /// Decodes until at least `minimum` bytes were appended to `block` or the last chunk ended.
    func decode(atLeast minimum: Int, into block: DecodedBlock) throws(PayloadError) {
        if chunkSize == 0 { try readHeader() }
        var produced = 0
        while produced < minimum && !isFinished {
            if current == nil {
                guard try startChunk() else { return }
            }
            produced += try step(into: block)
        }
    }

    /// Reads the magic and the chunk size.
    private func readHeader() throws(PayloadError) {
        try window.fill(atLeast: 12, buffer: input, source: source)
        guard window.count >= 12 else {
            throw fault(
                .header(
                    "the Payload is \(window.count) bytes, shorter than the 12-byte header (\"pbzx\" and a big-endian 64-bit chunk size)"
                ), at: 0)
        }
        guard held(4).elementsEqual(Self.magic) else {
            throw fault(.header("it does not start with \"pbzx\""), at: 0)
        }
        chunkSize = bigEndian(at: window.start + 4)
        guard chunkSize > 0 else { throw fault(.header("the chunk size is 0"), at: 4) }
        consume(12)
    }

    /// Reads the next chunk's header; false at a clean end after at least one chunk.
    private func startChunk() throws(PayloadError) -> Bool {
        try window.fill(atLeast: 16, buffer: input, source: source)
        let available = window.count
        if available == 0 && nextIndex > 0 {
            isFinished = true
            return false
        }
        if let shortChunk {
            throw fault(
                .trailing(lastIndex: shortChunk.index, lastSize: shortChunk.size, chunkSize: chunkSize),
                at: compressedOffset)
        }
        let index = nextIndex
        let headerOffset = compressedOffset
        guard available >= 16 else {
            throw fault(.truncated(index: index, needed: 16, found: UInt64(available)), at: compressedOffset)
        }
        let size = bigEndian(at: window.start)
        let length = bigEndian(at: window.start + 8)
        guard size > 0, size <= chunkSize else {
            throw fault(.chunkSize(index: index, size: size, chunkSize: chunkSize), at: headerOffset)
        }
        guard size <= maxDecodedBytes - decodedBytes else {
            throw .decompressionBomb(limit: maxDecodedBytes, compressedOffset: headerOffset)
        }
        consume(16)
        var chunk = Chunk(index: index, size: size, length: length, remainingIn: length, dataOffset: compressedOffset)
        if length != size {
            let wanted = Int(min(UInt64(Self.xzMagic.count), length))
            try window.fill(atLeast: wanted, buffer: input, source: source)
            guard window.count >= wanted else {
                throw fault(
                    .truncated(index: index, needed: length, found: UInt64(window.count)),
                    at: compressedOffset + UInt64(window.count))
            }
            let leading = Array(held(wanted))
            guard leading == Self.xzMagic else {
                throw fault(
                    .chunkEncoding(index: index, length: length, size: size, leading: leading), at: headerOffset)
            }
            do { chunk.decoder = try StreamCodec.xz.makeDecoder() } catch {
                throw fault(.chunkDecode(index: index, reason: error.reason), at: compressedOffset)
            }
        }
        nextIndex += 1
        current = chunk
        return true
    }

    /// Decodes or copies the next run of the current chunk; returns the bytes appended.
    private func step(into block: DecodedBlock) throws(PayloadError) -> Int {
        guard var chunk = current else { return 0 }
        if window.count == 0 && chunk.remainingIn > 0 {
            try window.fill(atLeast: 1, buffer: input, source: source)
            guard window.count > 0 else {
                throw fault(
                    .truncated(index: chunk.index, needed: chunk.remainingIn, found: 0), at: compressedOffset)
            }
        }
        let take = Int(min(UInt64(window.count), chunk.remainingIn))
        let made: Int
        if let decoder = chunk.decoder {
            made = try inflate(&chunk, decoder: decoder, take: take, into: block)
        } else {
            guard block.append(UnsafeRawBufferPointer(rebasing: input[window.start..<(window.start + take)])) else {
                throw fault(.chunkDecode(index: chunk.index, reason: "a run larger than a decoded block"), at: 0)
            }
            consume(take)
            chunk.remainingIn -= UInt64(take)
            chunk.produced += UInt64(take)
            made = take
        }
        decodedBytes += UInt64(made)
        if chunk.remainingIn == 0 && (chunk.decoder == nil || chunk.decoder?.finished == true) {
            if chunk.size < chunkSize { shortChunk = (chunk.index, chunk.size) }
            current = nil
        } else {
            current = chunk
        }
        return made
    }

    /// Runs liblzma once over at most `take` held bytes of the chunk, into room for one byte past its size.
    private func inflate(
        _ chunk: inout Chunk, decoder: any StreamDecoder, take: Int, into block: DecodedBlock
    ) throws(PayloadError) -> Int {
        let held = UnsafeRawBufferPointer(rebasing: input[window.start..<(window.start + take)])
        let remainingOut = chunk.size - chunk.produced
        let room = remainingOut >= UInt64(output.count) ? output.count : Int(remainingOut) + 1
        let result: (consumed: Int, produced: Int)
        do {
            result = try decoder.decode(held, into: UnsafeMutableRawBufferPointer(rebasing: output[0..<room]))
        } catch {
            throw fault(
                .chunkDecode(index: chunk.index, reason: "its xz stream is damaged (\(error.reason))"),
                at: chunk.dataOffset + error.inputOffset)
        }
        consume(result.consumed)
        chunk.remainingIn -= UInt64(result.consumed)
        chunk.produced += UInt64(result.produced)
        let here = compressedOffset
        if chunk.produced > chunk.size {
            throw fault(
                .chunkDecode(index: chunk.index, reason: "it decodes to more than the \(chunk.size) bytes it states"),
                at: here)
        }
        if decoder.finished {
            if chunk.remainingIn > 0 {
                throw fault(
                    .chunkDecode(
                        index: chunk.index,
                        reason:
                            "its xz stream ends after \(chunk.length - chunk.remainingIn) of the \(chunk.length) bytes it stores"
                    ), at: here)
            }
            if chunk.produced < chunk.size {
                throw fault(
                    .chunkDecode(
                        index: chunk.index,
                        reason: "it decodes to \(chunk.produced) bytes, not the \(chunk.size) it states"), at: here)
            }
        } else if result.consumed == 0 && result.produced == 0 {
            let reason =
                chunk.remainingIn == 0
                ? "its xz stream does not end within the \(chunk.length) bytes it stores"
                : "liblzma made no progress"
            throw fault(.chunkDecode(index: chunk.index, reason: reason), at: here)
        }
        guard block.append(UnsafeRawBufferPointer(rebasing: output[0..<result.produced])) else {
            throw fault(.chunkDecode(index: chunk.index, reason: "a run larger than a decoded block"), at: here)
        }
        return result.produced
    }

    private func fault(_ fault: PbzxFault, at offset: UInt64) -> PayloadError {
        .malformedPbzx(fault, offset: offset)
    }

    /// The first `count` held bytes.
    private func held(_ count: Int) -> UnsafeMutableRawBufferPointer.SubSequence {
        input[window.start..<(window.start + count)]
    }

    private func consume(_ count: Int) {
        window.start += count
        compressedOffset += UInt64(count)
    }

    private func bigEndian(at index: Int) -> UInt64 {
        input[index..<(index + 8)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }
}
