/// Reads the decoded cpio stream byte-exactly: headers into a scratch buffer, data straight out of
/// the current decoded block, with the absolute stream offset of every byte known.
final class CpioCursor {
    private let stream: DecodedStream
    private var block = UnsafeRawBufferPointer(start: nil, count: 0)
    private var index = 0
    private var ended = false
    /// Decoded bytes consumed so far: the stream offset of the next byte.
    private(set) var offset: UInt64 = 0

    /// Reads from `stream`, which must not have handed out a block yet.
    init(stream: DecodedStream) {
        self.stream = stream
    }

    /// Makes at least one unread byte available; false at the end of the stream.
    private func refill() throws(PayloadError) -> Bool {
        while index == block.count {
            if ended { return false }
            block = try stream.nextBlock()
            index = 0
            if block.isEmpty {
                ended = true
                return false
            }
        }
        return true
    }

    /// True when no decoded byte is left (the stream ended cleanly).
    func atEnd() throws(PayloadError) -> Bool { try !refill() }

    /// Appends exactly `count` bytes to `target`; returns false if the stream ends first (what
    /// arrived is still appended).
    func read(_ count: Int, into target: inout [UInt8]) throws(PayloadError) -> Bool {
        var missing = count
        while missing > 0 {
            guard try refill() else { return false }
            let take = min(missing, block.count - index)
            target.append(contentsOf: UnsafeRawBufferPointer(rebasing: block[index..<index + take]))
            index += take
            offset += UInt64(take)
            missing -= take
        }
        return true
    }

    /// Copies up to `limit` bytes into `buffer` (fewer at a block's end); 0 only at the end of the stream.
    func copy(into buffer: UnsafeMutableRawBufferPointer, limit: Int) throws(PayloadError) -> Int {
        guard limit > 0, !buffer.isEmpty, try refill() else { return 0 }
        let take = min(limit, buffer.count, block.count - index)
        buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: block[index..<index + take]))
        index += take
        offset += UInt64(take)
        return take
    }

    /// Passes over up to `limit` bytes, handing each run to `visit`; returns how many, 0 only at the end.
    func skip(_ limit: UInt64, visit: (UnsafeRawBufferPointer) -> Void) throws(PayloadError) -> UInt64 {
        guard limit > 0, try refill() else { return 0 }
        let take = Int(min(limit, UInt64(block.count - index)))
        visit(UnsafeRawBufferPointer(rebasing: block[index..<index + take]))
        index += take
        offset += UInt64(take)
        return UInt64(take)
    }
}
