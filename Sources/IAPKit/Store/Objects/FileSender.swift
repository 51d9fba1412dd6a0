import IAPSystem

/// Sends decoded files one after another into a bucket through an upload pipeline: a file up to
/// `ContentHasher.pieceBytes` read whole into memory and sent in one PUT, one up to
/// `ContentHasher.wholeObjectBytes` streamed in one PUT as it is read (`ObjectBodyPipe`), a larger
/// one as a multipart upload of parts sent as they are read. Each PUT and part carries the SHA-256
/// that validation took of those bytes (`ContentDigest`, its pieces for a large file), which the
/// store checks them against as they land: bytes other than those validated are refused and never
/// stored, and nothing is hashed here. A file with fewer or more bytes than declared fails the
/// publish before anything of it is stored. A streamed PUT that failed for now only cannot be sent
/// again from its spent body: it is listed in `resend`, for another pass over the package.
struct FileSender {
    let bucket: any ObjectBucket
    /// Keys below the version: `<product>/<version>/`.
    let prefix: String
    /// Objects already there, with their sizes: not sent again.
    let present: [String: UInt64]
    let pipeline: ObjectUploadPipeline
    /// The files whose streamed PUT failed for now only, by entry index.
    let resend = ResendList()
    /// The chunks streamed files are read into, used again once sent.
    private let chunks = ChunkPool(chunkBytes: Self.chunkBytes, limit: Self.pipeBytes / Self.chunkBytes)
    /// The whole parts of multipart uploads, used again once landed (a part lands while the next
    /// is read, so two are enough to keep; more would hold memory the pipeline's budget does not count).
    private let parts = ChunkPool(chunkBytes: ContentHasher.pieceBytes, limit: 2)
    /// The multipart uploads started, for the caller to abort those left open by a failure.
    private(set) var uploads: [StreamedMultipartUpload] = []

    /// Bytes a streamed file holds in memory at most, counted against the pipeline's budget.
    static let pipeBytes = 8 << 20
    /// The size of the chunks a streamed file is read in.
    static let chunkBytes = 1 << 20

    init(bucket: any ObjectBucket, prefix: String, present: [String: UInt64], pipeline: ObjectUploadPipeline) {
        self.bucket = bucket
        self.prefix = prefix
        self.present = present
        self.pipeline = pipeline
    }

    /// Sends `entry`, the package's entry `index`, if it is a file (`read` gives its bytes; nil: it has none).
    mutating func send(
        _ entry: ContentEntry, index: Int, digest: @autoclosure () throws -> ContentDigest,
        read: PackageContentReading.Reader?
    )
        throws
    {
        guard entry.kind == .file else { return }
        let key = prefix + entry.path
        if present[key] == entry.size { return }  // a rerun: landed before (the version's claim says same content)
        let expected = try digest()
        let headers = ObjectHeaders(
            contentType: ObjectStoreLayout.contentType(of: entry.path), cacheControl: ObjectStoreLayout.immutable)
        let empty: PackageContentReading.Reader = { _ in 0 }
        let read = read ?? empty
        if entry.size <= UInt64(ContentHasher.wholeObjectBytes) {
            parts.empty()  // a smaller file's bytes take the memory the parts of the last large one held
        }
        guard entry.size > UInt64(ContentHasher.pieceBytes) else {
            let bytes = try Self.read(Int(entry.size), from: read, last: true, of: entry)
            let bucket = bucket
            let sha256 = try Self.whole(expected, of: entry).bytes
            try pipeline.submit(bytes: bytes.count) {
                try bucket.putContent(key, bytes, sha256: sha256, headers: headers)
            }
            return
        }
        guard entry.size > UInt64(ContentHasher.wholeObjectBytes) else {
            try stream(
                entry, index: index, to: key, sha256: try Self.whole(expected, of: entry).bytes, headers: headers,
                read: read)
            return
        }
        let partBytes = UInt64(ContentHasher.pieceBytes)
        guard expected.pieces.count == Int((entry.size + partBytes - 1) / partBytes) else {
            throw PackageObjectStreamer.notRead(entry)
        }
        let upload = StreamedMultipartUpload(
            key: key, id: try bucket.startUpload(key, headers: headers), bucket: bucket)
        uploads.append(upload)
        var left = entry.size
        for piece in expected.pieces {
            let count = Int(min(partBytes, left))
            let last = UInt64(count) == left
            var part: [UInt8]
            if count == parts.chunkBytes {
                part = parts.take()
                try part.withUnsafeMutableBytes { try Self.fill($0, from: read, last: last, of: entry) }
            } else {
                part = try Self.read(count, from: read, last: last, of: entry)
            }
            try upload.submitPart(part, sha256: piece.bytes, to: pipeline, returningTo: parts)
            left -= UInt64(count)
        }
        try upload.seal()
    }

    /// Sends the file in one PUT whose body is read from `read` while it goes (`ObjectBodyPipe`).
    private func stream(
        _ entry: ContentEntry, index: Int, to key: String, sha256: [UInt8], headers: ObjectHeaders,
        read: PackageContentReading.Reader
    ) throws {
        let pipe = ObjectBodyPipe(capacity: Self.pipeBytes, pool: chunks)
        let (bucket, resend, size) = (bucket, resend, entry.size)
        try pipeline.submit(bytes: Self.pipeBytes) {
            defer { pipe.close() }
            do { try bucket.putStreamed(key, from: pipe, length: size, sha256: sha256, headers: headers) } catch let
                busy as ObjectBucketBusy
            {
                resend.add(index, busy.error)
            }
        }
        var left = size
        do {
            while left > 0 {
                let count = Int(min(UInt64(Self.chunkBytes), left))
                let last = UInt64(count) == left
                if count == Self.chunkBytes {
                    var chunk = chunks.take()
                    try chunk.withUnsafeMutableBytes { try Self.fill($0, from: read, last: last, of: entry) }
                    pipe.write(chunk)
                } else {
                    pipe.write(try Self.read(count, from: read, last: last, of: entry))
                }
                left -= UInt64(count)
            }
            pipe.finish()
        } catch {
            pipe.fail(error)
            throw error
        }
    }

    /// The SHA-256 validation took of the whole file.
    private static func whole(_ digest: ContentDigest, of entry: ContentEntry) throws -> SHA256Value {
        guard let sha256 = digest.sha256 else { throw PackageObjectStreamer.notRead(entry) }
        return sha256
    }

    /// Exactly `count` bytes from `read`; when `last`, the file must end there.
    private static func read(_ count: Int, from read: PackageContentReading.Reader, last: Bool, of entry: ContentEntry)
        throws -> [UInt8]
    {
        try [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            try fill(UnsafeMutableRawBufferPointer(buffer), from: read, last: last, of: entry)
            initialized = count
        }
    }

    /// Fills `buffer` from `read`, which must have that many bytes; when `last`, the file must end there.
    private static func fill(
        _ buffer: UnsafeMutableRawBufferPointer, from read: PackageContentReading.Reader, last: Bool,
        of entry: ContentEntry
    ) throws {
        var filled = 0
        while filled < buffer.count {
            let got = try read(UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
            if got == 0 { throw changed(entry) }
            filled += got
        }
        if last {
            var extra: UInt8 = 0
            guard try withUnsafeMutableBytes(of: &extra, read) == 0 else { throw changed(entry) }
        }
    }

    private static func changed(_ entry: ContentEntry) -> IAPKitError {
        .failed(
            "\(entry.rawPath): its bytes are not those validated (the package changed while it was published); nothing of it was stored — publish it again"
        )
    }
}

/// The files whose streamed PUT failed for now only, by entry index, with the last such failure.
final class ResendList: Sendable {
    private let state = Locked<(indexes: Set<Int>, error: (any Error)?)>(([], nil))

    /// Lists entry `index`, whose PUT failed with `error`.
    func add(_ index: Int, _ error: any Error) {
        state.withLock {
            $0.indexes.insert(index)
            $0.error = error
        }
    }

    /// The listed entries and the last failure (nil when none failed).
    var listed: (indexes: Set<Int>, error: (any Error)?) { state.withLock { $0 } }
}
