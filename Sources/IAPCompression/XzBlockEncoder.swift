internal import CLzma

/// Compresses whole buffers into single `.xz` streams (liblzma's `lzma_easy_buffer_encode`), as a
/// pbzx chunk holds them.
package enum XzBlockEncoder {
    /// The xz preset iapkg writes pbzx chunks at: 3 (a 4 MiB dictionary, about 32 MiB of encoder
    /// memory; `xz -6` needs 94 MiB, which would put a build past its 100 MiB budget).
    package static let preset: UInt32 = 3

    /// Compresses `input` into `output` as one xz stream with a CRC64 check; returns its length, or
    /// nil when the stream does not fit in `output` (the caller then stores the bytes as they are).
    package static func compress(
        _ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, preset: UInt32 = preset
    ) throws(XzEncodingError) -> Int? {
        guard let out = output.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
        var position = 0
        let status = lzma_easy_buffer_encode(
            preset, LZMA_CHECK_CRC64, nil, input.baseAddress?.assumingMemoryBound(to: UInt8.self), input.count,
            out, &position, output.count)
        switch status {
        case LZMA_OK: return position
        case LZMA_BUF_ERROR: return nil
        default: throw XzEncodingError(status: Int(status.rawValue))
        }
    }
}

/// liblzma refused to compress (out of memory, or an option it does not take).
package struct XzEncodingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// liblzma's `lzma_ret` status.
    package var status: Int

    package var description: String { "liblzma could not compress (lzma_ret \(status))" }
}
