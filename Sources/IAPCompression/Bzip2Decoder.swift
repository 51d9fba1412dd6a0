internal import CBzip2

/// A streaming bzip2 decoder (libbz2) for one stream.
package final class Bzip2Decoder: StreamDecoder {
    private var stream = bz_stream()
    package private(set) var finished = false
    package private(set) var totalIn: UInt64 = 0
    package private(set) var totalOut: UInt64 = 0

    /// Starts a decoder; throws if libbz2 cannot allocate its state.
    package init() throws(DecompressionError) {
        let status = BZ2_bzDecompressInit(&stream, 0, 0)
        guard status == BZ_OK else {
            throw DecompressionError(
                reason: "libbz2 could not start a decoder (\(Self.describe(status)))", inputOffset: 0)
        }
    }

    deinit { BZ2_bzDecompressEnd(&stream) }

    package func decode(
        _ input: UnsafeRawBufferPointer,
        into output: UnsafeMutableRawBufferPointer
    ) throws(DecompressionError) -> (consumed: Int, produced: Int) {
        guard !finished, let out = output.baseAddress, output.count > 0 else { return (0, 0) }
        let inCount = Int(clamped32(input.count))
        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: CChar.self))
        stream.avail_in = UInt32(inCount)
        stream.next_out = out.assumingMemoryBound(to: CChar.self)
        stream.avail_out = clamped32(output.count)
        let room = Int(stream.avail_out)
        let status = BZ2_bzDecompress(&stream)
        let consumed = inCount - Int(stream.avail_in)
        let produced = room - Int(stream.avail_out)
        defer {
            totalIn += UInt64(consumed)
            totalOut += UInt64(produced)
        }
        switch status {
        case BZ_STREAM_END: finished = true
        case BZ_OK: break
        default:
            throw DecompressionError(
                reason: "libbz2: \(Self.describe(status))", inputOffset: totalIn + UInt64(consumed))
        }
        return (consumed, produced)
    }

    private static func describe(_ status: Int32) -> String {
        switch status {
        case BZ_DATA_ERROR: "the data fails its integrity check (BZ_DATA_ERROR)"
        case BZ_DATA_ERROR_MAGIC: "no bzip2 signature \"BZh\" (BZ_DATA_ERROR_MAGIC)"
        case BZ_MEM_ERROR: "out of memory (BZ_MEM_ERROR)"
        case BZ_PARAM_ERROR: "bad parameters (BZ_PARAM_ERROR)"
        default: "libbz2 status \(status)"
        }
    }
}
