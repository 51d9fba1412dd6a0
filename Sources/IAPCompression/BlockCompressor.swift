internal import CDeflate

/// One libdeflate compressor (whole-buffer deflate; not thread-safe: one per thread at a time).
package final class BlockCompressor {
    /// libdeflate's levels: 0 (stored) to 12 (smallest); 7 matches zlib's 6 in size, faster.
    package static let levels: ClosedRange<Int32> = 0...12
    private let handle: OpaquePointer
    package let level: Int32

    /// A compressor at `level` (0–12).
    package init(level: Int32) {
        precondition(Self.levels.contains(level), "libdeflate level \(level) is outside 0...12")
        guard let handle = libdeflate_alloc_compressor(level) else {
            fatalError("libdeflate could not allocate a compressor")
        }
        self.handle = handle
        self.level = level
    }

    deinit { libdeflate_free_compressor(handle) }

    /// The largest output `count` input bytes can produce as one gzip member.
    package func gzipBound(_ count: Int) -> Int { libdeflate_gzip_compress_bound(handle, count) }

    /// The largest output `count` input bytes can produce as one zlib stream.
    package func zlibBound(_ count: Int) -> Int { libdeflate_zlib_compress_bound(handle, count) }

    /// Compresses `input` into one complete gzip member in `output`; returns its length.
    package func gzip(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> Int {
        libdeflate_gzip_compress(handle, input.baseAddress, input.count, output.baseAddress, output.count)
    }

    /// Compresses `input` into one complete zlib stream in `output`; returns its length.
    package func zlib(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> Int {
        libdeflate_zlib_compress(handle, input.baseAddress, input.count, output.baseAddress, output.count)
    }

    /// A quick guess whether `input` is already compressed: a 40 KiB sample (longer than deflate's
    /// 32 KiB window, so repeats within reach are seen) from its start and one from its middle both
    /// come out of level 1 at 97% of their size or more. Costs about 0.5 ms per MiB block.
    package static func looksIncompressible(_ input: UnsafeRawBufferPointer, probe: BlockCompressor) -> Bool {
        let sample = 40 << 10
        guard input.count >= 4 * sample else { return false }
        let output = UnsafeMutableRawBufferPointer.allocate(byteCount: probe.gzipBound(sample), alignment: 16)
        defer { output.deallocate() }
        for start in [0, input.count / 2] {
            let piece = UnsafeRawBufferPointer(rebasing: input[start..<(start + sample)])
            let size = libdeflate_deflate_compress(
                probe.handle, piece.baseAddress, sample, output.baseAddress, output.count)
            if size == 0 || size * 100 < sample * 97 { return false }
        }
        return true
    }
}
