/// The decoded (raw cpio) byte stream as libarchive's read callback consumes it, block by block.
///
/// Two blocks alternate: libarchive needs only the latest one to stay valid, and keeping the one
/// before it lets the end-of-archive check see every byte past the trailer, even when the trailer
/// straddled two blocks.
final class DecodedStream {
    /// Decoded bytes gathered before a block is handed to libarchive (unless the stream ends first).
    static let blockTarget = 64 * 1024

    private let decoder: any BlockDecoding
    private var current: DecodedBlock
    private var previous: DecodedBlock

    /// Wraps `decoder`, whose output this stream hands out.
    init(decoder: any BlockDecoding) {
        self.decoder = decoder
        current = DecodedBlock(initialCapacity: Self.blockTarget * 2)
        previous = DecodedBlock(initialCapacity: Self.blockTarget * 2)
    }

    /// Decoded bytes produced so far.
    var decodedBytes: UInt64 { decoder.decodedBytes }

    /// The next block of decoded bytes; empty once the compressed stream ended cleanly.
    func nextBlock() throws(PayloadError) -> UnsafeRawBufferPointer {
        swap(&current, &previous)
        current.reset(startOffset: decoder.decodedBytes)
        try decoder.decode(atLeast: Self.blockTarget, into: current)
        return current.bytes
    }

    /// Checks that everything decoded from `offset` (where libarchive stopped, after `TRAILER!!!`)
    /// to the end of the compressed stream is NUL padding.
    func verifyPadding(from offset: UInt64) throws(PayloadError) {
        for block in [previous, current] {
            try Self.verifyZeros(in: block, from: offset)
        }
        let scratch = previous
        while !decoder.isFinished {
            scratch.reset(startOffset: decoder.decodedBytes)
            try decoder.decode(atLeast: Self.blockTarget, into: scratch)
            try Self.verifyZeros(in: scratch, from: offset)
        }
    }

    /// Throws at the first non-NUL byte of `block` at or after stream offset `offset`.
    private static func verifyZeros(in block: DecodedBlock, from offset: UInt64) throws(PayloadError) {
        let bytes = block.bytes
        let blockEnd = block.startOffset + UInt64(bytes.count)
        guard offset < blockEnd else { return }
        let first = offset > block.startOffset ? Int(offset - block.startOffset) : 0
        if let index = bytes[first...].firstIndex(where: { $0 != 0 }) {
            throw .dataAfterTrailer(offset: block.startOffset + UInt64(index))
        }
    }
}
