import IAPCore

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
        guard let inflated = wholeZlibInflate(file, declared: declared),
            DigestHasher.digest(inflated.algorithm, of: inflated.bytes) == inflated.digest
        else { return nil }
        return inflated.bytes
    }

    /// ``readAll(_:maxBytes:)`` for a caller with other work to do meanwhile: the decoded bytes come
    /// back at once and their extracted checksum is checked on a thread of its own. `confirm()` waits
    /// for that check and throws what `readAll` would have thrown; nothing may be concluded from the
    /// bytes before it returns (a caller whose parse failed calls it first: a damaged entry is told
    /// as a checksum fault, not as whatever its bytes then looked like).
    public func readAllConfirmingLater(_ file: XarFile, maxBytes: Int) throws(XarError) -> (
        bytes: [UInt8], confirm: () throws(XarError) -> Void
    ) {
        let declared = try declaredSize(of: file, maxBytes: maxBytes)
        guard let inflated = wholeZlibInflate(file, declared: declared) else {
            return (try readAllStreamed(file, declared: declared), {})
        }
        let matches = ConcurrentResult {
            DigestHasher.digest(inflated.algorithm, of: inflated.bytes) == inflated.digest
        }
        return (
            inflated.bytes,
            { () throws(XarError) in
                // The stream makes every check again and names the fault.
                if !matches.value() { _ = try self.readAllStreamed(file, declared: declared) }
            }
        )
    }

    /// `file`'s bytes read, archived checksum checked and inflated in one call, with the extracted
    /// checksum they must have; nil in every case `wholeZlibRead` leaves to the stream.
    private func wholeZlibInflate(_ file: XarFile, declared: UInt64) -> (
        bytes: [UInt8], algorithm: DigestAlgorithm, digest: [UInt8]
    )? {
        guard let data = file.data, data.encoding == .zlib, data.size == declared,
            data.length > 0, data.length <= Self.wholeReadMaxStoredBytes,
            let archived = data.archivedChecksum, let archivedAlgorithm = archived.algorithm,
            archived.digest.count == archivedAlgorithm.byteCount,
            let extracted = data.extractedChecksum, let extractedAlgorithm = extracted.algorithm,
            extracted.digest.count == extractedAlgorithm.byteCount
        else { return nil }
        // The archive checked every data range of its TOC when it was opened and kept the refused ones.
        guard dataOutsideFile.isEmpty || !dataOutsideFile.contains(HeapSpan(data)) else { return nil }
        let stored = UnsafeMutableRawBufferPointer.allocate(byteCount: Int(data.length), alignment: 16)
        defer { stored.deallocate() }
        guard (try? descriptor.read(into: stored, at: heapOffset &+ data.offset)) == Int(data.length) else {
            return nil
        }
        let archivedHasher = DigestHasher(archivedAlgorithm)
        archivedHasher.update(UnsafeRawBufferPointer(stored))
        guard archivedHasher.finish() == archived.digest else { return nil }
        // One byte of room past the declared size: a stream that fills it decodes to too much.
        var made = -1
        let bytes = [UInt8](unsafeUninitializedCapacity: Int(declared) + 1) { buffer, count in
            let step = BlockDecompressor().zlibStream(
                UnsafeRawBufferPointer(stored), into: UnsafeMutableRawBufferPointer(buffer))
            if let step, step.used == stored.count { made = step.made }
            count = max(0, made)
        }
        guard made == Int(declared) else { return nil }
        return (bytes, extractedAlgorithm, extracted.digest)
    }
}
