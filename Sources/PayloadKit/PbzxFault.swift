internal import IAPSystem

/// How a pbzx Payload breaks its framing (PackageFormat.md §8 "pbzx Payloads"): the magic `pbzx`, a big-endian u64
/// chunk size, then chunks of (u64 uncompressed size, u64 stored length, bytes), each an xz
/// stream or, when the two sizes are equal, the chunk as is.
package enum PbzxFault: Equatable, Sendable, CustomStringConvertible {
    /// The 12-byte header is cut short, or declares a chunk size of 0.
    case header(String)
    /// Chunk `index` (0-based) states an uncompressed size of 0 or above the header's chunk size.
    case chunkSize(index: UInt64, size: UInt64, chunkSize: UInt64)
    /// The Payload ends inside chunk `index`'s 16-byte header or inside its stored bytes.
    case truncated(index: UInt64, needed: UInt64, found: UInt64)
    /// Chunk `index`'s xz stream is damaged, or decodes to another size than the one stated, or
    /// ends before its stored length.
    case chunkDecode(index: UInt64, reason: String)
    /// Chunk `index`'s stored length differs from its size and its bytes do not start an xz stream.
    case chunkEncoding(index: UInt64, length: UInt64, size: UInt64, leading: [UInt8])
    /// Bytes follow the last chunk (a chunk shorter than the chunk size ends the stream).
    case trailing(lastIndex: UInt64, lastSize: UInt64, chunkSize: UInt64)

    package var description: String {
        switch self {
        case .header(let reason):
            "the pbzx header is malformed: \(reason)"
        case .chunkSize(let index, let size, let chunkSize):
            size == 0
                ? "pbzx chunk \(index) states an uncompressed size of 0; every chunk carries at least one byte"
                : "pbzx chunk \(index) states \(size) uncompressed bytes, more than the chunk size \(chunkSize) the header declares"
        case .truncated(let index, let needed, let found):
            "the Payload ends inside pbzx chunk \(index): \(needed) more bytes were due, \(found) were there; the package is truncated"
        case .chunkDecode(let index, let reason):
            "pbzx chunk \(index) does not decode as stated: \(reason)"
        case .chunkEncoding(let index, let length, let size, let leading):
            "pbzx chunk \(index) stores \(length) bytes for \(size) uncompressed bytes, so it must be xz data, but it starts with "
                + (leading.isEmpty ? "nothing" : leading.map { Hex.encode([$0]) }.joined(separator: " "))
                + ", not the xz magic fd 37 7a 58 5a 00"
        case .trailing(let lastIndex, let lastSize, let chunkSize):
            "bytes follow pbzx chunk \(lastIndex), which holds \(lastSize) of the chunk size's \(chunkSize) bytes and so must be the last chunk"
        }
    }
}
