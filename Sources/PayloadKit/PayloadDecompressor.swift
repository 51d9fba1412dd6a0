internal import IAPSystem

/// A source of decoded (raw cpio) bytes that DecodedStream hands to libarchive block by block.
protocol BlockDecoding: AnyObject {
    /// True once the last compressed stream ended and the source had nothing more.
    var isFinished: Bool { get }
    /// Decoded bytes produced so far.
    var decodedBytes: UInt64 { get }
    /// Decodes until at least `minimum` bytes were appended to `block` or the input ended cleanly.
    func decode(atLeast minimum: Int, into block: DecodedBlock) throws(PayloadError)
}

extension GzipMemberDecoder: BlockDecoding {}

/// Decodes a Payload compressed with gzip, bzip2, xz or pbzx, told apart by its first bytes, under one
/// cap on decoded bytes; any other start is an error that names what was found.
final class PayloadDecompressor: BlockDecoding {
    private let maxDecodedBytes: UInt64
    /// False when only the head is wanted: gzip members then stream, decoded only as far as asked.
    private let wholeMembers: Bool
    private let source: (UnsafeMutableRawBufferPointer) throws -> Int
    private var inner: (any BlockDecoding)?

    /// Prepares to decode the bytes `source` yields (it returns 0 at the end), up to `maxDecodedBytes`.
    init(
        maxDecodedBytes: UInt64, wholeMembers: Bool = true,
        source: @escaping (UnsafeMutableRawBufferPointer) throws -> Int
    ) {
        self.maxDecodedBytes = maxDecodedBytes
        self.wholeMembers = wholeMembers
        self.source = source
    }

    var isFinished: Bool { inner?.isFinished ?? false }
    var decodedBytes: UInt64 { inner?.decodedBytes ?? 0 }

    func decode(atLeast minimum: Int, into block: DecodedBlock) throws(PayloadError) {
        try start().decode(atLeast: minimum, into: block)
    }

    /// The decoder for the format the first bytes name, made on first use.
    private func start() throws(PayloadError) -> any BlockDecoding {
        if let inner { return inner }
        let leading = try readLeading()
        let replay = ReplayedSource(leading: leading, rest: source)
        let decoder: any BlockDecoding =
            switch PayloadCompression.detect(leading) {
            case .gzip:
                GzipMemberDecoder(maxDecodedBytes: maxDecodedBytes, wholeMembers: wholeMembers, source: replay.read)
            case .bzip2:
                CompressedStreamDecoder(
                    codec: .bzip2, magic: PayloadCompression.bzip2Magic,
                    maxDecodedBytes: maxDecodedBytes, source: replay.read)
            case .xz:
                CompressedStreamDecoder(
                    codec: .xz, magic: PayloadCompression.xzMagic,
                    maxDecodedBytes: maxDecodedBytes, source: replay.read)
            case .pbzx: PbzxDecoder(maxDecodedBytes: maxDecodedBytes, source: replay.read)
            case nil: throw PayloadError.unrecognizedCompression(leadingBytes: leading)
            }
        inner = decoder
        return decoder
    }

    /// Reads the first `PayloadCompression.sniffLength` bytes (fewer if the source ends first).
    private func readLeading() throws(PayloadError) -> [UInt8] {
        var leading = [UInt8](repeating: 0, count: PayloadCompression.sniffLength)
        var count = 0
        while count < leading.count {
            let read: Int
            do {
                read = try leading.withUnsafeMutableBytes {
                    try source(UnsafeMutableRawBufferPointer(rebasing: $0[count...]))
                }
            } catch let error as PayloadError {
                throw error
            } catch {
                throw .inputFailed(String(describing: error))
            }
            guard (0...(leading.count - count)).contains(read) else {
                throw .inputFailed("the source reported \(read) bytes for a \(leading.count - count)-byte buffer")
            }
            if read == 0 { break }
            count += read
        }
        return Array(leading.prefix(count))
    }
}

/// A byte source that first gives back bytes already read from another, then reads on from it.
private final class ReplayedSource {
    private var leading: [UInt8]
    private var position = 0
    private let rest: (UnsafeMutableRawBufferPointer) throws -> Int

    init(leading: [UInt8], rest: @escaping (UnsafeMutableRawBufferPointer) throws -> Int) {
        self.leading = leading
        self.rest = rest
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard position < leading.count else { return try rest(buffer) }
        let n = min(buffer.count, leading.count - position)
        leading.withUnsafeBytes { source in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[position..<(position + n)]))
        }
        position += n
        return n
    }
}
