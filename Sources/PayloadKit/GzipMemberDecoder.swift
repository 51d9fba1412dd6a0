internal import IAPCompression

/// Decodes one or more concatenated gzip members from a byte source with IAPCompression's Inflater,
/// stopping with an error the moment the decoded total would pass a cap.
///
/// Bytes after a member must start another member (`1f 8b`); anything else is junk and an error.
/// Input is fed to zlib in small slices so one call can expand to at most a few MiB (deflate
/// expands by at most about 1032:1), which bounds memory however hostile the stream.
final class GzipMemberDecoder {
    /// Input held at once: enough for a whole member of iapkg's 1 MiB blocks, and then some.
    static let inputCapacity = (2 << 20) + (64 << 10)
    /// Largest member decoded in one piece; larger ones stream through zlib.
    static let wholeMemberLimit = 2 << 20
    /// Compressed bytes handed to one `decompress` call.
    static let sliceSize = 4 * 1024

    private let source: (UnsafeMutableRawBufferPointer) throws -> Int
    private let maxDecodedBytes: UInt64
    /// False for a caller that reads only the head: every member streams through zlib, decoded only
    /// as far as asked, rather than read and decoded whole.
    private let wholeMembers: Bool
    private let input: UnsafeMutableRawBufferPointer
    private var window = InputWindow()
    private var inflater: Inflater?
    private var memberCount = 0
    private var memberStartOffset: UInt64 = 0
    /// libdeflate, for members that fit in memory whole (iapkg writes 1 MiB members).
    private let whole = BlockDecompressor()
    /// True once the last member ended and the source had nothing more.
    private(set) var isFinished = false
    /// Decoded bytes produced so far.
    private(set) var decodedBytes: UInt64 = 0
    /// Source offset of the next compressed byte not yet given to zlib.
    private(set) var compressedOffset: UInt64 = 0

    /// Prepares to decode the bytes `source` yields (it returns 0 at the end), up to `maxDecodedBytes`;
    /// with `wholeMembers` false no member is decoded in one piece.
    init(
        maxDecodedBytes: UInt64, wholeMembers: Bool = true,
        source: @escaping (UnsafeMutableRawBufferPointer) throws -> Int
    ) {
        self.maxDecodedBytes = maxDecodedBytes
        self.wholeMembers = wholeMembers
        self.source = source
        input = .allocate(byteCount: Self.inputCapacity, alignment: 16)
    }

    deinit {
        input.deallocate()
    }

    /// Decodes until at least `minimum` bytes were appended to `block` or the last member ended.
    func decode(atLeast minimum: Int, into block: DecodedBlock) throws(PayloadError) {
        var produced = 0
        while produced < minimum && !isFinished {
            let inflater: Inflater
            if let current = self.inflater {
                inflater = current
            } else {
                if wholeMembers, try decodeWholeMember(into: block, produced: &produced) { continue }
                guard let started = try startMember() else { return }
                inflater = started
            }
            if window.start == window.end {
                try fill(atLeast: 1)
                guard window.start < window.end else { throw .truncatedGzip(offset: compressedOffset) }
            }
            let sliceEnd = min(window.end, window.start + Self.sliceSize)
            let slice = UnsafeRawBufferPointer(rebasing: input[window.start..<sliceEnd])
            let consumed = try inflate(slice, with: inflater, into: block, produced: &produced)
            window.start += consumed
            compressedOffset += UInt64(consumed)
            if inflater.finished {
                memberCount += 1
                self.inflater = nil
            } else if consumed == 0 {
                throw .corruptGzip(offset: compressedOffset, reason: "zlib made no progress")
            }
        }
    }

    /// Decodes the next member in one libdeflate call when it lies whole in the input window and
    /// decodes to at most `wholeMemberLimit` bytes; returns false to let zlib stream it instead
    /// (which also names the exact offset of any damage).
    private func decodeWholeMember(into block: DecodedBlock, produced: inout Int) throws(PayloadError) -> Bool {
        try fill(atLeast: Self.inputCapacity)
        let available = window.end - window.start
        // Decoded straight into the block's room (no copy); kept only once the cap allows it.
        guard available >= 18, input[window.start] == 0x1f, input[window.start + 1] == 0x8b,
            block.reserve(Self.wholeMemberLimit),
            let (used, made) = whole.gzipMember(
                UnsafeRawBufferPointer(rebasing: input[window.start..<window.end]),
                into: UnsafeMutableRawBufferPointer(rebasing: block.spare[0..<Self.wholeMemberLimit]))
        else { return false }
        guard UInt64(made) <= maxDecodedBytes - decodedBytes else {
            throw .decompressionBomb(limit: maxDecodedBytes, compressedOffset: compressedOffset)
        }
        block.commit(made)
        decodedBytes += UInt64(made)
        produced += made
        window.start += used
        compressedOffset += UInt64(used)
        memberCount += 1
        return true
    }

    /// Starts the next member, or returns nil at a clean end after at least one member.
    private func startMember() throws(PayloadError) -> Inflater? {
        try fill(atLeast: 2)
        let available = window.end - window.start
        if available == 0 && memberCount > 0 {
            isFinished = true
            return nil
        }
        guard available >= 2, input[window.start] == 0x1f, input[window.start + 1] == 0x8b else {
            throw memberCount == 0 ? .notGzip(offset: compressedOffset) : .junkAfterGzip(offset: compressedOffset)
        }
        let inflater = Inflater(format: .gzip)
        self.inflater = inflater
        memberStartOffset = compressedOffset
        return inflater
    }

    /// Runs one slice through zlib, enforcing the cap on every output chunk.
    private func inflate(
        _ slice: UnsafeRawBufferPointer, with inflater: Inflater, into block: DecodedBlock,
        produced: inout Int
    ) throws(PayloadError) -> Int {
        let limit = maxDecodedBytes
        var decoded = decodedBytes
        var appended = 0
        defer {
            decodedBytes = decoded
            produced += appended
        }
        do {
            return try inflater.decompress(slice) { chunk in
                guard UInt64(chunk.count) <= limit - decoded else {
                    throw PayloadError.decompressionBomb(limit: limit, compressedOffset: self.compressedOffset)
                }
                guard block.append(chunk) else {
                    throw PayloadError.corruptGzip(
                        offset: self.compressedOffset,
                        reason: "one slice decoded to more than \(DecodedBlock.maximumCapacity) bytes")
                }
                decoded += UInt64(chunk.count)
                appended += chunk.count
            }
        } catch let error as PayloadError {
            throw error
        } catch let error as ZlibError {
            throw .corruptGzip(offset: memberStartOffset + error.inputOffset, reason: error.reason)
        } catch {
            throw .corruptGzip(offset: compressedOffset, reason: String(describing: error))
        }
    }

    /// Reads from the source until `count` bytes are buffered or it ends.
    private func fill(atLeast count: Int) throws(PayloadError) {
        try window.fill(atLeast: count, buffer: input, source: source)
    }
}
