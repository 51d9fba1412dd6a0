internal import IAPCompression

/// Decodes one or more concatenated bzip2 or xz streams from a byte source with IAPCompression's
/// decoders, stopping with an error the moment the decoded total would pass a cap.
///
/// Bytes after a stream must start another stream of the same format; anything else is junk and
/// an error. Output goes through a fixed buffer, so memory stays bounded however hostile the input.
final class CompressedStreamDecoder {
    /// Compressed bytes held at once.
    static let inputCapacity = 256 << 10
    /// Decoded bytes made by one decoder call.
    static let outputCapacity = 256 << 10

    private let codec: StreamCodec
    private let magic: [UInt8]
    private let source: (UnsafeMutableRawBufferPointer) throws -> Int
    private let maxDecodedBytes: UInt64
    private let input: UnsafeMutableRawBufferPointer
    private let output: UnsafeMutableRawBufferPointer
    private var window = InputWindow()
    private var decoder: (any StreamDecoder)?
    private var streamCount = 0
    private var streamStartOffset: UInt64 = 0
    /// True once the last stream ended and the source had nothing more.
    private(set) var isFinished = false
    /// Decoded bytes produced so far.
    private(set) var decodedBytes: UInt64 = 0
    /// Source offset of the next compressed byte not yet given to the decoder.
    private(set) var compressedOffset: UInt64 = 0

    /// Prepares to decode `codec` streams, each starting with `magic`, up to `maxDecodedBytes`.
    init(
        codec: StreamCodec, magic: [UInt8], maxDecodedBytes: UInt64,
        source: @escaping (UnsafeMutableRawBufferPointer) throws -> Int
    ) {
        self.codec = codec
        self.magic = magic
        self.maxDecodedBytes = maxDecodedBytes
        self.source = source
        input = .allocate(byteCount: Self.inputCapacity, alignment: 16)
        output = .allocate(byteCount: Self.outputCapacity, alignment: 16)
    }

    deinit {
        input.deallocate()
        output.deallocate()
    }

    /// Decodes until at least `minimum` bytes were appended to `block` or the last stream ended.
    func decode(atLeast minimum: Int, into block: DecodedBlock) throws(PayloadError) {
        var produced = 0
        while produced < minimum && !isFinished {
            let decoder: any StreamDecoder
            if let current = self.decoder {
                decoder = current
            } else {
                guard let started = try startStream() else { return }
                decoder = started
            }
            if window.start == window.end { try fill(atLeast: 1) }
            let made = try step(decoder, into: block)
            produced += made
            if decoder.finished {
                streamCount += 1
                self.decoder = nil
            }
        }
    }

    /// Runs the decoder once over the held input, with room for at most one byte past the cap.
    private func step(_ decoder: any StreamDecoder, into block: DecodedBlock) throws(PayloadError) -> Int {
        let held = UnsafeRawBufferPointer(rebasing: input[window.start..<window.end])
        let remaining = maxDecodedBytes - decodedBytes
        let room = remaining >= UInt64(output.count) ? output.count : Int(remaining) + 1
        let result: (consumed: Int, produced: Int)
        do {
            result = try decoder.decode(held, into: UnsafeMutableRawBufferPointer(rebasing: output[0..<room]))
        } catch {
            throw .corruptCompressed(
                format: codec.description, offset: streamStartOffset + error.inputOffset, reason: error.reason)
        }
        window.start += result.consumed
        compressedOffset += UInt64(result.consumed)
        guard UInt64(result.produced) <= remaining else {
            throw .decompressionBomb(limit: maxDecodedBytes, compressedOffset: compressedOffset)
        }
        guard block.append(UnsafeRawBufferPointer(rebasing: output[0..<result.produced])) else {
            throw .corruptCompressed(
                format: codec.description, offset: compressedOffset,
                reason: "one block decoded to more than \(DecodedBlock.maximumCapacity) bytes")
        }
        decodedBytes += UInt64(result.produced)
        if result.consumed == 0 && result.produced == 0 && !decoder.finished {
            if held.isEmpty && window.ended {
                throw .truncatedCompressed(format: codec.description, offset: compressedOffset)
            }
            if !held.isEmpty {
                throw .corruptCompressed(
                    format: codec.description, offset: compressedOffset, reason: "the decoder made no progress")
            }
        }
        return result.produced
    }

    /// Starts the next stream, or returns nil at a clean end after at least one stream.
    private func startStream() throws(PayloadError) -> (any StreamDecoder)? {
        try fill(atLeast: magic.count)
        let available = window.end - window.start
        if available == 0 && streamCount > 0 {
            isFinished = true
            return nil
        }
        let starts =
            available >= magic.count
            && UnsafeRawBufferPointer(rebasing: input[window.start..<(window.start + magic.count)]).elementsEqual(magic)
        guard starts else {
            if streamCount == 0 {
                throw .unrecognizedCompression(leadingBytes: Array(input[window.start..<window.end].prefix(6)))
            }
            throw .junkAfterCompressed(format: codec.description, offset: compressedOffset)
        }
        let decoder: any StreamDecoder
        do { decoder = try codec.makeDecoder() } catch {
            throw .corruptCompressed(format: codec.description, offset: compressedOffset, reason: error.reason)
        }
        self.decoder = decoder
        streamStartOffset = compressedOffset
        return decoder
    }

    /// Reads from the source until `count` bytes are held or it ends.
    private func fill(atLeast count: Int) throws(PayloadError) {
        try window.fill(atLeast: count, buffer: input, source: source)
    }
}

extension CompressedStreamDecoder: BlockDecoding {}
