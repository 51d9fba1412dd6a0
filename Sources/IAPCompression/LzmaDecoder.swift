internal import CLzma

/// A streaming LZMA decoder (liblzma) for one `.xz` or `.lzma` stream, its memory capped.
package final class LzmaDecoder: StreamDecoder {
    /// Which container the stream carries.
    package enum Container: Sendable {
        /// `.xz` only.
        case xz
        /// `.lzma` ("alone") or `.xz`, told apart by the first bytes, as xar's own reader does.
        case lzmaOrXz
    }

    /// Most memory liblzma may use for one stream (the dictionary, mostly): `xz -9` needs 65 MiB.
    package static let memoryLimit: UInt64 = 256 << 20

    private var stream = lzma_stream()
    package private(set) var finished = false
    package private(set) var totalIn: UInt64 = 0
    package private(set) var totalOut: UInt64 = 0

    /// Starts a decoder for `container`; throws if liblzma cannot allocate its state.
    package init(container: Container) throws(DecompressionError) {
        let status =
            switch container {
            case .xz: lzma_stream_decoder(&stream, Self.memoryLimit, 0)
            case .lzmaOrXz: lzma_auto_decoder(&stream, Self.memoryLimit, 0)
            }
        guard status == LZMA_OK else {
            throw DecompressionError(
                reason: "liblzma could not start a decoder (\(Self.describe(status)))", inputOffset: 0)
        }
    }

    deinit { lzma_end(&stream) }

    package func decode(
        _ input: UnsafeRawBufferPointer,
        into output: UnsafeMutableRawBufferPointer
    ) throws(DecompressionError) -> (consumed: Int, produced: Int) {
        guard !finished, let out = output.baseAddress, output.count > 0 else { return (0, 0) }
        stream.next_in = input.baseAddress?.assumingMemoryBound(to: UInt8.self)
        stream.avail_in = input.count
        stream.next_out = out.assumingMemoryBound(to: UInt8.self)
        stream.avail_out = output.count
        let status = lzma_code(&stream, LZMA_RUN)
        let consumed = input.count - stream.avail_in
        let produced = output.count - stream.avail_out
        defer {
            totalIn += UInt64(consumed)
            totalOut += UInt64(produced)
        }
        switch status {
        case LZMA_STREAM_END: finished = true
        case LZMA_OK, LZMA_BUF_ERROR: break  // BUF_ERROR: no progress without more input or room
        default:
            throw DecompressionError(
                reason: "liblzma: \(Self.describe(status))", inputOffset: totalIn + UInt64(consumed))
        }
        return (consumed, produced)
    }

    private static func describe(_ status: lzma_ret) -> String {
        switch status {
        case LZMA_FORMAT_ERROR: "not an .xz or .lzma stream (LZMA_FORMAT_ERROR)"
        case LZMA_OPTIONS_ERROR: "unsupported options (LZMA_OPTIONS_ERROR)"
        case LZMA_DATA_ERROR: "the stream is damaged (LZMA_DATA_ERROR)"
        case LZMA_MEMLIMIT_ERROR: "decoding needs more than \(memoryLimit >> 20) MiB of memory (LZMA_MEMLIMIT_ERROR)"
        case LZMA_MEM_ERROR: "out of memory (LZMA_MEM_ERROR)"
        case LZMA_UNSUPPORTED_CHECK: "unsupported integrity check (LZMA_UNSUPPORTED_CHECK)"
        default: "liblzma status \(status.rawValue)"
        }
    }
}
