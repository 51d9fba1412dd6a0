internal import CDeflate

/// One libdeflate decompressor: whole-buffer inflate, two to three times zlib's speed.
package final class BlockDecompressor {
    private let handle: OpaquePointer

    package init() {
        guard let handle = libdeflate_alloc_decompressor() else {
            fatalError("libdeflate could not allocate a decompressor")
        }
        self.handle = handle
    }

    deinit { libdeflate_free_decompressor(handle) }

    /// Decodes the one gzip member that starts `input` (CRC and length checked) into `output`.
    /// Returns (input bytes used, output bytes made), or nil if the member is corrupt, runs past
    /// `input`, or decodes to more than `output` holds: the caller then streams it with zlib.
    package func gzipMember(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> (
        used: Int, made: Int
    )? {
        run(libdeflate_gzip_decompress_ex, input, output)
    }

    /// Decodes the one zlib stream (RFC 1950, Adler-32 checked) that starts `input` into `output`;
    /// nil as for `gzipMember`, and the caller then streams it with zlib.
    package func zlibStream(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> (
        used: Int, made: Int
    )? {
        run(libdeflate_zlib_decompress_ex, input, output)
    }

    /// One libdeflate `*_decompress_ex` call; nil unless it succeeded.
    private func run(
        _ decompress: (
            OpaquePointer?, UnsafeRawPointer?, Int, UnsafeMutableRawPointer?, Int, UnsafeMutablePointer<Int>?,
            UnsafeMutablePointer<Int>?
        ) -> libdeflate_result,
        _ input: UnsafeRawBufferPointer, _ output: UnsafeMutableRawBufferPointer
    ) -> (used: Int, made: Int)? {
        var used = 0
        var made = 0
        let status = decompress(handle, input.baseAddress, input.count, output.baseAddress, output.count, &used, &made)
        return status == LIBDEFLATE_SUCCESS ? (used, made) : nil
    }
}
