internal import CZlib
import IAPSystem

/// Which wrapper a deflate stream carries.
package enum ZlibFormat: Sendable {
    /// RFC 1950 (what xar calls `application/x-gzip`).
    case zlib
    /// RFC 1952 gzip.
    case gzip
    /// Bare RFC 1951 deflate.
    case raw

    var windowBits: Int32 {
        switch self {
        case .zlib: 15
        case .gzip: 31
        case .raw: -15
        }
    }
}

/// A deflate or inflate stream that failed, with zlib's reason and how far it got.
package typealias ZlibError = DecompressionError

/// Size of the output chunks handed to a sink.
let zlibChunkSize = 256 * 1024

/// A streaming deflate compressor.
package final class Deflater {
    private var stream = z_stream()
    private var output: UnsafeMutablePointer<UInt8>
    package private(set) var totalIn: UInt64 = 0
    package private(set) var totalOut: UInt64 = 0

    /// Starts a stream of `format` at compression `level` (0–9).
    package init(format: ZlibFormat, level: Int32 = 6) {
        output = .allocate(capacity: zlibChunkSize)
        let status = deflateInit2_(
            &stream, level, Z_DEFLATED, format.windowBits, 8, Z_DEFAULT_STRATEGY,
            ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        precondition(status == Z_OK, "zlib could not start a deflate stream (\(status))")
    }

    deinit {
        deflateEnd(&stream)
        output.deallocate()
    }

    /// Compresses `input`; with `finish`, ends the stream. Output goes to `sink` in chunks.
    package func compress(
        _ input: UnsafeRawBufferPointer, finish: Bool,
        into sink: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: UInt8.self))
        stream.avail_in = UInt32(input.count)
        let flush = finish ? Z_FINISH : Z_NO_FLUSH
        while true {
            stream.next_out = output
            stream.avail_out = UInt32(zlibChunkSize)
            let status = deflate(&stream, flush)
            guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                throw ZlibError(reason: "deflate failed (\(status))", inputOffset: totalIn)
            }
            let produced = zlibChunkSize - Int(stream.avail_out)
            if produced > 0 {
                totalOut += UInt64(produced)
                try sink(UnsafeRawBufferPointer(start: output, count: produced))
            }
            if finish {
                if status == Z_STREAM_END { break }
            } else if stream.avail_in == 0 && stream.avail_out != 0 {
                break
            }
        }
        totalIn += UInt64(input.count)
    }

    /// Compresses a whole buffer into one finished stream.
    package static func compress(_ bytes: [UInt8], format: ZlibFormat, level: Int32 = 6) throws -> [UInt8] {
        let deflater = Deflater(format: format, level: level)
        var out = [UInt8]()
        try bytes.withUnsafeBytes { input in
            try deflater.compress(input, finish: true) { out.append(contentsOf: $0) }
        }
        return out
    }
}

/// A streaming inflater that reports exactly where its stream ended.
package final class Inflater: StreamDecoder {
    private var stream = z_stream()
    private var output: UnsafeMutablePointer<UInt8>
    /// True once the compressed stream's end marker (and trailer) has been read.
    package private(set) var finished = false
    package private(set) var totalIn: UInt64 = 0
    package private(set) var totalOut: UInt64 = 0

    /// Starts an inflate stream of `format`.
    package init(format: ZlibFormat) {
        output = .allocate(capacity: zlibChunkSize)
        let status = inflateInit2_(&stream, format.windowBits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        precondition(status == Z_OK, "zlib could not start an inflate stream (\(status))")
    }

    deinit {
        inflateEnd(&stream)
        output.deallocate()
    }

    /// Inflates from `input` straight into `output` (see `StreamDecoder`).
    package func decode(
        _ input: UnsafeRawBufferPointer,
        into target: UnsafeMutableRawBufferPointer
    ) throws(DecompressionError) -> (consumed: Int, produced: Int) {
        guard !finished, let out = target.baseAddress, target.count > 0 else { return (0, 0) }
        let inCount = Int(clamped32(input.count))
        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: UInt8.self))
        stream.avail_in = UInt32(inCount)
        stream.next_out = out.assumingMemoryBound(to: UInt8.self)
        stream.avail_out = clamped32(target.count)
        let room = Int(stream.avail_out)
        let status = inflate(&stream, Z_NO_FLUSH)
        let consumed = inCount - Int(stream.avail_in)
        let produced = room - Int(stream.avail_out)
        defer {
            totalIn += UInt64(consumed)
            totalOut += UInt64(produced)
        }
        switch status {
        case Z_STREAM_END: finished = true
        case Z_OK, Z_BUF_ERROR: break  // BUF_ERROR: no progress without more input or room
        default:
            let message = stream.msg.map { String(cString: $0) } ?? "status \(status)"
            throw DecompressionError(
                reason: "corrupt compressed data: \(message)", inputOffset: totalIn + UInt64(consumed))
        }
        return (consumed, produced)
    }

    /// Decompresses `input`, handing output to `sink` in chunks. Returns how many input bytes
    /// were consumed: fewer than `input.count` only when the stream ended inside `input`.
    @discardableResult
    package func decompress(
        _ input: UnsafeRawBufferPointer,
        into sink: (UnsafeRawBufferPointer) throws -> Void
    ) throws -> Int {
        guard !finished else { return 0 }
        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: UInt8.self))
        stream.avail_in = UInt32(input.count)
        while true {
            stream.next_out = output
            stream.avail_out = UInt32(zlibChunkSize)
            let status = inflate(&stream, Z_NO_FLUSH)
            let produced = zlibChunkSize - Int(stream.avail_out)
            let consumed = input.count - Int(stream.avail_in)
            if produced > 0 {
                totalOut += UInt64(produced)
                try sink(UnsafeRawBufferPointer(start: output, count: produced))
            }
            switch status {
            case Z_STREAM_END:
                finished = true
                totalIn += UInt64(consumed)
                return consumed
            case Z_OK:
                if stream.avail_in == 0 && stream.avail_out != 0 {
                    totalIn += UInt64(consumed)
                    return consumed
                }
            case Z_BUF_ERROR:
                // No progress possible: all input used and output not full.
                totalIn += UInt64(consumed)
                return consumed
            default:
                let message = stream.msg.map { String(cString: $0) } ?? "status \(status)"
                throw ZlibError(reason: "corrupt compressed data: \(message)", inputOffset: totalIn + UInt64(consumed))
            }
        }
    }
}

/// A zlib stream of exactly a chosen length: the text deflated and sync-flushed, then a final
/// stored block of spaces (which XML allows after its root element) to fill the rest, then the
/// Adler-32 of text and spaces. Lets a xar writer reserve the TOC's room before the heap.
package enum PaddedZlibStream {
    /// The stream and its uncompressed length, or nil if `text` does not fit in `length` bytes.
    package static func make(_ text: [UInt8], level: Int32, length: Int) -> (bytes: [UInt8], uncompressedLength: Int)? {
        var stream = z_stream()
        guard
            deflateInit2_(
                &stream, level, Z_DEFLATED, 15, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { return nil }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(text.count))) + 64)
        let produced: Int = text.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { out in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: UInt8.self))
                stream.avail_in = UInt32(input.count)
                stream.next_out = out.baseAddress?.assumingMemoryBound(to: UInt8.self)
                stream.avail_out = UInt32(out.count)
                guard deflate(&stream, Z_SYNC_FLUSH) == Z_OK, stream.avail_in == 0 else { return -1 }
                return out.count - Int(stream.avail_out)
            }
        }
        guard produced >= 0 else { return nil }
        var bytes = Array(output.prefix(produced))
        // Each stored block costs 5 bytes of header; the Adler-32 trailer 4.
        var room = length - bytes.count - 4
        guard room >= 5 else { return nil }
        var padding = 0
        while room > 0 {
            let chunk = min(room - 5, 65_535)
            guard chunk >= 0 else { return nil }
            let last = room - 5 - chunk == 0
            bytes.append(last ? 0x01 : 0x00)
            bytes += [UInt8(chunk & 0xFF), UInt8(chunk >> 8), UInt8(~chunk & 0xFF), UInt8((~chunk >> 8) & 0xFF)]
            bytes += [UInt8](repeating: 0x20, count: chunk)
            padding += chunk
            room -= 5 + chunk
            if last { break }
            guard room >= 5 else { return nil }
        }
        var adler = text.withUnsafeBytes {
            adler32(1, $0.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt32($0.count))
        }
        let spaces = [UInt8](repeating: 0x20, count: padding)
        adler = spaces.withUnsafeBytes {
            adler32(adler, $0.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt32($0.count))
        }
        bytes.appendBE(UInt32(truncatingIfNeeded: adler))
        guard bytes.count == length else { return nil }
        return (bytes, text.count + padding)
    }
}
