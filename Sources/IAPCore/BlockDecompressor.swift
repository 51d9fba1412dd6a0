internal import CDeflate

/// One libdeflate decompressor: whole-buffer inflate, two to three times zlib's speed.
public final class BlockDecompressor {
    private let handle: OpaquePointer

    public init() {
        guard let handle = libdeflate_alloc_decompressor() else {
            fatalError("libdeflate could not allocate a decompressor")
        }
        self.handle = handle
    }

    deinit { libdeflate_free_decompressor(handle) }

    /// Decodes the one gzip member that starts `input` (CRC and length checked) into `output`.
    /// Returns (input bytes used, output bytes made), or nil if the member is corrupt, runs past
    /// `input`, or decodes to more than `output` holds: the caller then streams it with zlib.
    public func gzipMember(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> (
        used: Int, made: Int
    )? {
        var used = 0
        var made = 0
        let status = libdeflate_gzip_decompress_ex(
            handle, input.baseAddress, input.count, output.baseAddress, output.count,
            &used, &made)
        return status == LIBDEFLATE_SUCCESS ? (used, made) : nil
    }
}
