import IAPCompression
import IAPCrypto
import IAPSystem

extension XarArchive {
    /// Entries whose stored bytes are at most this long may be read whole and inflated in one call.
    static let wholeReadMaxStoredBytes: UInt64 = 64 << 20

    /// `file`'s decoded bytes when it is zlib data that reads, inflates (libdeflate, one call) and
    /// digests cleanly in one go: both checksums present and matching, the stream filling exactly
    /// its stored length and decoding to exactly its declared size. nil in every other case (a
    /// missing or unusable checksum, another encoding, any fault at all): the caller then streams
    /// it through `XarDataStream`, which makes every check again and says what is wrong, so this
    /// path changes no outcome, only the speed of the common one (a Bom of tens of MB).
    func wholeZlibRead(_ file: XarFile, declared: UInt64) -> [UInt8]? {
        guard let inflated = wholeZlibInflate(file, declared: declared), inflated.digestsMatch() else { return nil }
        return inflated.bytes
    }

    /// ``readAll(_:maxBytes:)`` for a caller with other work to do meanwhile: the decoded bytes come
    /// back at once and both their checksums (archived and extracted) are checked on a thread of
    /// their own. `confirm()` waits for that check and throws what `readAll` would have thrown;
    /// nothing may be concluded from the bytes before it returns (a caller whose parse failed calls
    /// it first: a damaged entry is told as a checksum fault, not as whatever its bytes then looked like).
    package func readAllConfirmingLater(_ file: XarFile, maxBytes: Int) throws(XarError) -> (
        bytes: [UInt8], confirm: () throws(XarError) -> Void
    ) {
        let declared = try declaredSize(of: file, maxBytes: maxBytes)
        guard let inflated = wholeZlibInflate(file, declared: declared) else {
            return (try readAllStreamed(file, declared: declared), {})
        }
        let matches = ConcurrentResult { inflated.digestsMatch() }
        return (
            inflated.bytes,
            { () throws(XarError) in
                // The stream makes every check again and names the fault.
                if !matches.value() { _ = try self.readAllStreamed(file, declared: declared) }
            }
        )
    }

    /// An entry inflated whole, with what its two checksums must be.
    private struct WholeInflation: Sendable {
        let stored: [UInt8]
        let bytes: [UInt8]
        let archived: (algorithm: DigestAlgorithm, digest: [UInt8])
        let extracted: (algorithm: DigestAlgorithm, digest: [UInt8])

        /// Both checksums hold: the stored bytes' archived one and the decoded bytes' extracted one.
        func digestsMatch() -> Bool {
            DigestHasher.digest(archived.algorithm, of: stored) == archived.digest
                && DigestHasher.digest(extracted.algorithm, of: bytes) == extracted.digest
        }
    }

    /// `file`'s bytes read and inflated in one call, not yet checked against either checksum (a
    /// stream that does not decode to exactly the declared size is refused here); nil in every
    /// case `wholeZlibRead` leaves to the stream.
    private func wholeZlibInflate(_ file: XarFile, declared: UInt64) -> WholeInflation? {
        guard let data = file.data, data.encoding == .zlib, data.size == declared,
            data.length > 0, data.length <= Self.wholeReadMaxStoredBytes,
            let archived = data.archivedChecksum, let archivedAlgorithm = archived.algorithm,
            archived.digest.count == archivedAlgorithm.byteCount,
            let extracted = data.extractedChecksum, let extractedAlgorithm = extracted.algorithm,
            extracted.digest.count == extractedAlgorithm.byteCount
        else { return nil }
        // The archive checked every data range of its TOC when it was opened and kept the refused ones.
        guard dataOutsideFile.isEmpty || !dataOutsideFile.contains(HeapSpan(data)) else { return nil }
        var readWhole = false
        let stored = [UInt8](unsafeUninitializedCapacity: Int(data.length)) { buffer, count in
            let room = UnsafeMutableRawBufferPointer(buffer)
            readWhole = (try? descriptor.read(into: room, at: heapOffset &+ data.offset)) == Int(data.length)
            count = readWhole ? buffer.count : 0
        }
        guard readWhole else { return nil }
        // One byte of room past the declared size: a stream that fills it decodes to too much.
        var made = -1
        let bytes = [UInt8](unsafeUninitializedCapacity: Int(declared) + 1) { buffer, count in
            LargePages.advise(UnsafeMutableRawBufferPointer(buffer))
            let step = stored.withUnsafeBytes { stored in
                BlockDecompressor().zlibStream(stored, into: UnsafeMutableRawBufferPointer(buffer))
            }
            if let step, step.used == stored.count { made = step.made }
            count = max(0, made)
        }
        guard made == Int(declared) else { return nil }
        return WholeInflation(
            stored: stored, bytes: bytes, archived: (archivedAlgorithm, archived.digest),
            extracted: (extractedAlgorithm, extracted.digest))
    }
}
