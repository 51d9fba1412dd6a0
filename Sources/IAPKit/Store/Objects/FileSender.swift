import IAPSystem

/// Sends decoded files one after another into a bucket through an upload pipeline: a file up to
/// `PackageObjectStreamer.partBytes` read whole into memory and sent in one PUT, a larger one as a
/// multipart upload of parts sent as they are read. Each PUT and part carries the SHA-256 that
/// validation took of those bytes (`ContentDigest`, its pieces for a large file), which the store
/// checks them against as they land: bytes other than those validated are refused and never
/// stored, and nothing is hashed here. A file with fewer or more bytes than declared fails the
/// publish before anything of it is sent or sealed.
struct FileSender {
    let bucket: any ObjectBucket
    /// Keys below the version: `<product>/<version>/`.
    let prefix: String
    /// Objects already there, with their sizes: not sent again.
    let present: [String: UInt64]
    let pipeline: ObjectUploadPipeline
    /// The multipart uploads started, for the caller to abort those left open by a failure.
    private(set) var uploads: [StreamedMultipartUpload] = []

    init(bucket: any ObjectBucket, prefix: String, present: [String: UInt64], pipeline: ObjectUploadPipeline) {
        self.bucket = bucket
        self.prefix = prefix
        self.present = present
        self.pipeline = pipeline
    }

    /// Sends `entry` if it is a file (`read` gives its bytes; nil: it has none).
    mutating func send(
        _ entry: ContentEntry, digest: @autoclosure () throws -> ContentDigest, read: PackageContentReading.Reader?
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
        guard entry.size > UInt64(PackageObjectStreamer.partBytes) else {
            let bytes = try Self.read(Int(entry.size), from: read, last: true, of: entry)
            let bucket = bucket
            let sha256 = try Self.whole(expected, of: entry).bytes
            try pipeline.submit(bytes: bytes.count) {
                try bucket.putContent(key, bytes, sha256: sha256, headers: headers)
            }
            return
        }
        let partBytes = UInt64(PackageObjectStreamer.partBytes)
        guard expected.pieces.count == Int((entry.size + partBytes - 1) / partBytes) else {
            throw PackageObjectStreamer.notRead(entry)
        }
        let upload = StreamedMultipartUpload(
            key: key, id: try bucket.startUpload(key, headers: headers), bucket: bucket)
        uploads.append(upload)
        var left = entry.size
        for piece in expected.pieces {
            let count = Int(min(partBytes, left))
            let part = try Self.read(count, from: read, last: UInt64(count) == left, of: entry)
            try upload.submitPart(part, sha256: piece.bytes, to: pipeline)
            left -= UInt64(count)
        }
        try upload.seal()
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
        let bytes = try [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            while initialized < count {
                let got = try read(UnsafeMutableRawBufferPointer(rebasing: raw[initialized...]))
                if got == 0 { break }
                initialized += got
            }
        }
        guard bytes.count == count else { throw changed(entry) }
        if last {
            var extra: UInt8 = 0
            guard try withUnsafeMutableBytes(of: &extra, read) == 0 else { throw changed(entry) }
        }
        return bytes
    }

    private static func changed(_ entry: ContentEntry) -> IAPKitError {
        .failed(
            "\(entry.rawPath): its bytes are not those validated (the package changed while it was published); nothing of it was stored — publish it again"
        )
    }
}
