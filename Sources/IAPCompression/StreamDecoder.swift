/// A compressed stream that failed to decode, with the library's reason and how far it got.
package struct DecompressionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The library's own message, or a summary of its status code.
    package var reason: String
    /// Input bytes consumed (from the start of the stream) before the failure.
    package var inputOffset: UInt64

    /// Creates an error at `inputOffset` of the compressed stream.
    package init(reason: String, inputOffset: UInt64) {
        self.reason = reason
        self.inputOffset = inputOffset
    }

    package var description: String { "\(reason) (at input byte \(inputOffset))" }
}

/// The compression formats iapkg decodes, each through a maintained library.
package enum StreamCodec: Sendable, Equatable, CustomStringConvertible {
    /// RFC 1950 zlib (zlib).
    case zlib
    /// RFC 1952 gzip, one member (zlib).
    case gzip
    /// bzip2, one stream (libbz2).
    case bzip2
    /// LZMA as xar means it: an `.lzma` ("alone") stream or, as early xar wrote, an `.xz` one (liblzma).
    case lzma
    /// The `.xz` container, one stream (liblzma).
    case xz

    package var description: String {
        switch self {
        case .zlib: "zlib"
        case .gzip: "gzip"
        case .bzip2: "bzip2"
        case .lzma: "lzma"
        case .xz: "xz"
        }
    }

    /// A fresh decoder for one stream of this format.
    package func makeDecoder() throws(DecompressionError) -> any StreamDecoder {
        switch self {
        case .zlib: Inflater(format: .zlib)
        case .gzip: Inflater(format: .gzip)
        case .bzip2: try Bzip2Decoder()
        case .lzma: try LzmaDecoder(container: .lzmaOrXz)
        case .xz: try LzmaDecoder(container: .xz)
        }
    }
}

/// One compressed stream decoded in pieces, into output buffers the caller owns, reporting exactly
/// where the stream ended. One class per library, each owning its C handle (freed in `deinit`).
package protocol StreamDecoder: AnyObject {
    /// True once the stream's end marker (and trailer) has been read; later input is not consumed.
    var finished: Bool { get }
    /// Compressed bytes consumed so far.
    var totalIn: UInt64 { get }
    /// Decoded bytes produced so far.
    var totalOut: UInt64 { get }
    /// Decodes from `input` into `output` until the output is full, the input is used up or the
    /// stream ends; returns the bytes consumed and produced (both 0: no progress is possible
    /// without more input or more room). Throws at corrupt data, with its offset in the stream.
    func decode(
        _ input: UnsafeRawBufferPointer,
        into output: UnsafeMutableRawBufferPointer
    ) throws(DecompressionError) -> (consumed: Int, produced: Int)
}

/// Clamps a buffer length to what a C library's 32-bit length field holds.
@inline(__always)
func clamped32(_ count: Int) -> UInt32 { UInt32(clamping: count) }
