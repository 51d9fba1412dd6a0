import IAPCompression
import IAPCrypto
import IAPRules
import IAPSystem

/// One entry's decoded bytes, read from the heap in bounded chunks and checked on the way:
/// never more than the declared size, no junk after the encoded stream, both checksums.
package final class XarDataStream {
    /// The entry's path, for errors.
    package let entry: String
    /// Bytes decoded and accepted so far (never more than the declared size).
    package private(set) var decodedByteCount: UInt64 = 0
    /// Bytes the decoder produced, the refused excess included (at most one byte past the declared size).
    package private(set) var producedByteCount: UInt64 = 0
    /// Stored bytes read from the heap so far.
    package private(set) var storedByteCount: UInt64 = 0

    private static let readChunk = 1 << 20
    /// Chunk for a caller that decodes only the head: it reads (and digests) little past what it needs.
    private static let headChunk = 64 << 10
    /// Entries at least this long are read (and their stored bytes digested) on a read-ahead thread.
    private static let readAheadThreshold: UInt64 = 4 << 20

    private let descriptor: FileDescriptor
    /// Stored bytes read at once: `readChunk`, or `headChunk` for a head-only caller.
    private let chunkSize: Int
    private let start: UInt64
    private let length: UInt64
    private let size: UInt64
    private let encoding: XarEncoding
    private let archived: (hasher: DigestHasher, expected: [UInt8])?
    private let extracted: (hasher: DigestHasher, expected: [UInt8])?
    /// The codec's decoder; nil for stored data.
    private let decoder: (any StreamDecoder)?
    /// The decoder filled all the room it was given last time, so it may hold more output.
    private var decoderMayHoldOutput = false
    /// Stored data is the decoded data: one digest serves both checksums (same algorithm).
    private let extractedIsArchived: Bool
    /// Reads and digests large entries ahead of the consumer, on its own thread.
    private var readAhead: ReadAheadReader?
    /// Owned read buffer when reading directly.
    private var ownBuffer = UnsafeMutableRawBufferPointer(start: nil, count: 0)
    /// The current chunk of stored bytes: `storedBuffer[0..<storedCount]` (own buffer or read-ahead's).
    private var storedBuffer = UnsafeRawBufferPointer(start: nil, count: 0)
    private var storedCount = 0
    private var storedPosition = 0
    private var ended = false
    private var failure: XarError?

    /// With `wanted` false a large entry is read on the caller's thread as it is consumed, in small
    /// chunks, for a caller that decodes only its head. With `checkingDigests` false neither checksum
    /// is computed (the caller holds the bytes to digests of its own).
    init(archive: XarArchive, file: XarFile, readAhead wanted: Bool = true, checkingDigests: Bool = true)
        throws(XarError)
    {
        entry = file.path
        descriptor = archive.descriptor
        chunkSize = wanted ? Self.readChunk : Self.headChunk
        guard let data = file.data else {
            start = 0
            length = 0
            size = 0
            encoding = .stored
            archived = nil
            extracted = nil
            decoder = nil
            extractedIsArchived = false
            return
        }
        // The archive checked every data range of its TOC when it was opened and kept the refused ones.
        guard archive.dataOutsideFile.isEmpty || !archive.dataOutsideFile.contains(HeapSpan(data)) else {
            throw XarError(
                rule: Rule.xarDataRange,
                "the data (heap offset \(data.offset), \(data.length) bytes) lies outside the file",
                entry: file.path, advice: "the archive is truncated or damaged; refuse it")
        }
        start = archive.heapOffset + data.offset
        length = data.length
        size = data.size
        encoding = data.encoding
        decoder = try Self.decoder(for: data.encoding, entry: file.path)
        archived =
            checkingDigests
            ? try Self.expect(data.archivedChecksum, "archived-checksum", Rule.xarArchivedChecksum, file.path) : nil
        extracted =
            checkingDigests
            ? try Self.expect(data.extractedChecksum, "extracted-checksum", Rule.xarExtractedChecksum, file.path) : nil
        extractedIsArchived = data.encoding == .stored && archived?.hasher.algorithm == extracted?.hasher.algorithm
        if wanted && length >= Self.readAheadThreshold {
            readAhead = try? ReadAheadReader(
                file: descriptor, start: start, length: length, chunkSize: Self.readChunk,
                hasher: archived?.hasher)
        }
    }

    private static func expect(
        _ checksum: XarChecksum?, _ name: String, _ rule: Rule,
        _ path: String
    ) throws(XarError) -> (hasher: DigestHasher, expected: [UInt8])? {
        // A missing checksum is reported once, with the archive's findings (`xar-checksum-missing`);
        // the bytes are still decoded so that every content rule can judge them.
        guard let checksum else { return nil }
        guard let algorithm = checksum.algorithm, checksum.digest.count == algorithm.byteCount else {
            throw XarError(
                rule: rule,
                "the \(name) (style \"\(checksum.style)\", \(checksum.digest.count) bytes) is not a usable digest",
                entry: path, advice: "rebuild the package with SHA-1 or SHA-256 checksums")
        }
        return (DigestHasher(algorithm), checksum.digest)
    }

    /// The decoder for `encoding`, nil for stored data; throws `xar-encoding` for a style xar does not define.
    private static func decoder(for encoding: XarEncoding, entry: String) throws(XarError) -> (any StreamDecoder)? {
        let codec: StreamCodec
        switch encoding {
        case .stored: return nil
        case .zlib: codec = .zlib
        case .bzip2: codec = .bzip2
        case .lzma: codec = .lzma
        case .xz: codec = .xz
        case .other(let style):
            throw XarError(
                rule: Rule.xarEncoding, "unknown data encoding \"\(style)\"", entry: entry,
                advice: "rebuild the package with zlib (application/x-gzip), bzip2, lzma, xz or stored data")
        }
        do { return try codec.makeDecoder() } catch {
            throw XarError(
                rule: Rule.xarDataDecode, "the \(codec) decoder could not start: \(error.reason)", entry: entry,
                advice: "the machine is out of memory; try again")
        }
    }

    deinit { ownBuffer.deallocate() }

    /// Copies the next decoded bytes into `buffer`; returns 0 at the end, after every check passed.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(XarError) -> Int {
        if let failure { throw failure }
        guard buffer.count > 0 else { return 0 }
        do throws(XarError) {
            while true {
                if ended { return 0 }
                if let decoder {
                    if storedPosition < storedCount || decoderMayHoldOutput {
                        let n = try decodeStep(decoder, into: buffer)
                        if n > 0 { return n }
                        continue
                    }
                } else if storedPosition < storedCount {
                    // Stored data: straight from the chunk to the caller, checked on the way.
                    let n = min(buffer.count, storedCount - storedPosition)
                    let piece = UnsafeRawBufferPointer(rebasing: storedBuffer[storedPosition..<(storedPosition + n)])
                    try check(piece)
                    UnsafeMutableRawBufferPointer(rebasing: buffer[0..<n]).copyMemory(from: piece)
                    storedPosition += n
                    return n
                }
                if storedByteCount == length {
                    try finishChecks()
                    ended = true
                    return 0
                }
                try refill()
            }
        } catch {
            failure = error
            throw error
        }
    }

    private func fail(_ rule: Rule, _ message: String, at offset: UInt64? = nil, advice: String) -> XarError {
        XarError(rule: rule, message, entry: entry, offset: offset, advice: advice)
    }

    private func refill() throws(XarError) {
        let want = Int(min(UInt64(chunkSize), length - storedByteCount))
        let position = start + storedByteCount
        if let readAhead {
            let chunk = try xarIO("reading \(entry)") { try readAhead.next() }
            guard let chunk, chunk.count == want else {
                throw fail(
                    Rule.xarDataRange, "the file ends inside the entry's data",
                    at: position + UInt64(chunk?.count ?? 0),
                    advice: "the archive is truncated; rebuild or download it again")
            }
            storedBuffer = chunk
        } else {
            if ownBuffer.baseAddress == nil {
                ownBuffer = .allocate(byteCount: Int(min(UInt64(chunkSize), length)), alignment: 16)
            }
            let target = UnsafeMutableRawBufferPointer(rebasing: ownBuffer[0..<want])
            let got = try xarIO("reading \(entry)") { try descriptor.read(into: target, at: position) }
            guard got == want else {
                throw fail(
                    Rule.xarDataRange, "the file ends inside the entry's data", at: position + UInt64(got),
                    advice: "the archive is truncated; rebuild or download it again")
            }
            archived?.hasher.update(UnsafeRawBufferPointer(target))
            storedBuffer = UnsafeRawBufferPointer(target)
        }
        storedCount = want
        storedByteCount += UInt64(want)
        storedPosition = 0
    }

    /// Counts and digests decoded bytes, refusing any beyond the declared size.
    private func check(_ bytes: UnsafeRawBufferPointer) throws(XarError) {
        producedByteCount += UInt64(bytes.count)
        guard UInt64(bytes.count) <= size - decodedByteCount else {
            throw fail(
                Rule.xarDataSize, "the data decodes to more than its declared size of \(size) bytes; decoding stopped",
                advice: "the archive is damaged or a decompression bomb; refuse it")
        }
        decodedByteCount += UInt64(bytes.count)
        if !extractedIsArchived { extracted?.hasher.update(bytes) }
    }

    /// Decodes the rest of the current chunk straight into `buffer`, giving the decoder room for at
    /// most one byte past the declared size, so a bomb stops the moment it would exceed it.
    private func decodeStep(_ decoder: any StreamDecoder, into buffer: UnsafeMutableRawBufferPointer) throws(XarError)
        -> Int
    {
        let junkOffset = start + storedByteCount - UInt64(storedCount - storedPosition)
        if decoder.finished {
            throw fail(
                Rule.xarDataDecode,
                "the compressed stream ends before the stored length of \(length) bytes; the rest is junk",
                at: junkOffset, advice: "the archive is damaged or hostile; refuse it")
        }
        let remaining = size - decodedByteCount
        let room = remaining >= UInt64(buffer.count) ? buffer.count : Int(remaining) + 1
        let input = UnsafeRawBufferPointer(rebasing: storedBuffer[storedPosition..<storedCount])
        let target = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<room])
        let step: (consumed: Int, produced: Int)
        do {
            step = try decoder.decode(input, into: target)
        } catch {
            throw fail(
                Rule.xarDataDecode, "the \(encoding.style) data is corrupt: \(error.reason)",
                at: start + error.inputOffset,
                advice: "the archive is damaged; rebuild or download it again")
        }
        storedPosition += step.consumed
        decoderMayHoldOutput = step.produced == room && !decoder.finished
        try check(UnsafeRawBufferPointer(rebasing: buffer[0..<step.produced]))
        if decoder.finished && (storedPosition < storedCount || storedByteCount < length) {
            throw fail(
                Rule.xarDataDecode,
                "the compressed stream ends before the stored length of \(length) bytes; the rest is junk",
                at: start + storedByteCount - UInt64(storedCount - storedPosition),
                advice: "the archive is damaged or hostile; refuse it")
        }
        if step.consumed == 0 && step.produced == 0 && !decoder.finished && storedPosition < storedCount {
            throw fail(
                Rule.xarDataDecode, "the compressed data makes no progress", at: junkOffset,
                advice: "the archive is damaged; rebuild or download it again")
        }
        return step.produced
    }

    private func finishChecks() throws(XarError) {
        if let decoder, !decoder.finished {
            throw fail(
                Rule.xarDataDecode, "the compressed stream is cut short at the end of its \(length) stored bytes",
                at: start + length, advice: "the archive is damaged; rebuild or download it again")
        }
        var archivedDigest: [UInt8]?
        if let archived {
            readAhead?.waitForDigest()  // the stored bytes are digested on the read-ahead's own thread
            let digest = archived.hasher.finish()
            archivedDigest = digest
            guard digest == archived.expected else {
                throw fail(
                    Rule.xarArchivedChecksum,
                    "the stored bytes digest to \(Hex.encode(digest)), but the TOC records \(Hex.encode(archived.expected))",
                    at: start, advice: "the archive is damaged or was altered; refuse it")
            }
        }
        guard decodedByteCount == size else {
            throw fail(
                Rule.xarDataSize, "the data decodes to \(decodedByteCount) bytes, but the TOC declares \(size)",
                at: start,
                advice: "the archive is damaged; refuse it")
        }
        if let extracted {
            let digest = extractedIsArchived ? (archivedDigest ?? []) : extracted.hasher.finish()
            guard digest == extracted.expected else {
                throw fail(
                    Rule.xarExtractedChecksum,
                    "the decoded bytes digest to \(Hex.encode(digest)), but the TOC records \(Hex.encode(extracted.expected))",
                    at: start, advice: "the archive is damaged or was altered; refuse it")
            }
        }
    }
}
