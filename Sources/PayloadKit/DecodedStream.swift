/// The decoded (raw cpio) byte stream as libarchive's read callback consumes it, block by block.
///
/// Two blocks alternate: libarchive needs only the latest one to stay valid, and keeping the one
/// before it lets the end-of-archive check see every byte past the trailer, even when the trailer
/// straddled two blocks.
final class DecodedStream {
    /// Decoded bytes gathered before a block is handed to libarchive (unless the stream ends first).
    static let blockTarget = 64 * 1024

    private let decoder: any BlockDecoding
    /// The decoder running on a thread of its own, when asked for (then `decoder` is its alone).
    private let ahead: DecodeAhead?
    /// The empty block that ends the stream was handed out (decoding ahead).
    private var reachedEnd = false
    private var current: DecodedBlock
    private var previous: DecodedBlock

    /// Wraps `decoder`, whose output this stream hands out; with `decodingAhead`, decoded on a
    /// thread of its own (on this one if the system gives none).
    init(decoder: any BlockDecoding, decodingAhead: Bool = false) {
        self.decoder = decoder
        ahead = decodingAhead ? DecodeAhead(decoder: decoder, blockCapacity: Self.blockTarget * 2) : nil
        current = DecodedBlock(initialCapacity: Self.blockTarget * 2)
        previous = DecodedBlock(initialCapacity: Self.blockTarget * 2)
    }

    /// Decoded bytes produced so far (decoding ahead: handed out so far).
    var decodedBytes: UInt64 {
        ahead == nil ? decoder.decodedBytes : current.startOffset + UInt64(current.count)
    }

    /// The next block of decoded bytes; empty once the compressed stream ended cleanly.
    func nextBlock() throws(PayloadError) -> UnsafeRawBufferPointer {
        if let ahead {
            if reachedEnd { return UnsafeRawBufferPointer(start: nil, count: 0) }
            let block = try ahead.next()
            ahead.recycle(previous)
            previous = current
            current = block
            reachedEnd = block.count == 0
            return current.bytes
        }
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
        if let ahead {
            while !reachedEnd {
                let block = try ahead.next()
                defer { ahead.recycle(block) }
                reachedEnd = block.count == 0
                try Self.verifyZeros(in: block, from: offset)
            }
            return
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
