import IAPCompression
import IAPCrypto
import IAPSystem
import XMLKit

/// Writing file data into the heap: streamed through a deflater and two digests, or compressed in one
/// call when the bytes are all in memory.
extension XarWriter {
    /// Adds a regular file whose bytes `body` hands, in pieces, to the function it is given.
    package func addFile(
        path: String, mode: UInt32 = 0o644, mtime: String, encoding: XarWriterEncoding,
        body: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void
    ) throws {
        try checkNew(path: path, mtime: mtime)
        let data: XarData
        do {
            data = try writeData(encoding: encoding, body: body)
        } catch {
            // Drop the partial bytes so the next entry starts where the heap really ends.
            let end = heapFileOffset + heapLength
            do {
                try heap.truncate(to: end)
                try heap.seek(to: end)
            } catch {
                finished = true
            }
            throw error
        }
        try add(path: path, type: .file, mode: mode, mtime: mtime, linkTarget: nil, data: data)
    }

    /// Adds a regular file whose whole content is in memory (a Bom, a PackageInfo): zlib data is made
    /// in one libdeflate call, at the level matching the writer's zlib level.
    package func addFile(path: String, mode: UInt32 = 0o644, mtime: String, encoding: XarWriterEncoding, bytes: [UInt8])
        throws
    {
        guard encoding == .zlib else {
            return try addFile(path: path, mode: mode, mtime: mtime, encoding: encoding) { sink in
                try bytes.withUnsafeBytes { try sink($0) }
            }
        }
        try checkNew(path: path, mtime: mtime)
        let compressor = BlockCompressor(level: min(12, options.compressionLevel + 1))
        // Uninitialised: of the worst-case room (a 22 MB Bom at 100,000 entries) only the pages the
        // compressed bytes fill are ever touched, so they alone count against memory.
        let stored = [UInt8](unsafeUninitializedCapacity: compressor.zlibBound(bytes.count)) { room, count in
            count = bytes.withUnsafeBytes { input in compressor.zlib(input, into: UnsafeMutableRawBufferPointer(room)) }
        }
        guard stored.count > 0 else {
            throw XarError(rule: nil, "libdeflate could not compress the entry", entry: path, advice: "report this")
        }
        let count = stored.count
        try xarIO("writing the heap") { try heap.write(stored) }
        let style = options.checksum.rawValue
        let data = XarData(
            offset: heapLength, length: UInt64(count), size: UInt64(bytes.count), encoding: .zlib,
            archivedChecksum: XarChecksum(style: style, digest: DigestHasher.digest(options.checksum, of: stored)),
            extractedChecksum: XarChecksum(style: style, digest: DigestHasher.digest(options.checksum, of: bytes)))
        heapLength += UInt64(count)
        try add(path: path, type: .file, mode: mode, mtime: mtime, linkTarget: nil, data: data)
    }

    /// Adds a regular file with the bytes read from `source` (from its current position to its end).
    package func addFile(
        path: String, mode: UInt32 = 0o644, mtime: String, encoding: XarWriterEncoding,
        contentsOf source: FileDescriptor
    ) throws {
        try addFile(path: path, mode: mode, mtime: mtime, encoding: encoding) { write in
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
            defer { buffer.deallocate() }
            while true {
                let n = try source.readSequential(into: buffer)
                if n == 0 { break }
                try write(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
            }
        }
    }

    private func writeData(
        encoding: XarWriterEncoding,
        body: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void
    ) throws -> XarData {
        let archived = DigestHasher(options.checksum)
        let extracted = DigestHasher(options.checksum)
        let start = heapLength
        var size: UInt64 = 0
        let heap = self.heap
        var written: UInt64 = 0
        // A heap written straight into the output, which is flushed before it is renamed into
        // place, goes to the disk as it is written (a temporary heap is copied out later).
        var pacer: WritebackPacer? = directStart == nil ? nil : WritebackPacer()
        let store: (UnsafeRawBufferPointer) throws -> Void = { bytes in
            archived.update(bytes)
            try heap.write(bytes)
            written += UInt64(bytes.count)
            pacer?.wrote(bytes.count, to: heap)
        }
        switch encoding {
        case .stored:
            try body { bytes in
                size += UInt64(bytes.count)
                try store(bytes)
            }
        case .zlib:
            let deflater = Deflater(format: .zlib, level: options.compressionLevel)
            try body { bytes in
                extracted.update(bytes)
                size += UInt64(bytes.count)
                try deflater.compress(bytes, finish: false, into: store)
            }
            try deflater.compress(UnsafeRawBufferPointer(start: nil, count: 0), finish: true, into: store)
        }
        heapLength += written
        let style = options.checksum.rawValue
        let archivedDigest = archived.finish()
        // Stored bytes are the extracted bytes: one digest serves both.
        let extractedDigest = encoding == .stored ? archivedDigest : extracted.finish()
        return XarData(
            offset: start, length: written, size: size,
            encoding: encoding == .zlib ? .zlib : .stored,
            archivedChecksum: XarChecksum(style: style, digest: archivedDigest),
            extractedChecksum: XarChecksum(style: style, digest: extractedDigest))
    }
}
