import IAPCrypto
import IAPSystem

/// Sends decoded files one after another into a bucket through an upload pipeline: a file up to
/// `PackageObjectStreamer.partBytes` read whole into memory and sent in one PUT that carries its
/// SHA-256, a larger one as a multipart upload of parts sent as they are read, its SHA-256
/// checked before the upload is sealed. A file whose bytes are not those validation hashed, or
/// not as many as declared, fails the publish and is never stored.
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
        _ entry: ContentEntry, sha256: @autoclosure () throws -> SHA256Value, read: PackageContentReading.Reader?
    )
        throws
    {
        guard entry.kind == .file else { return }
        let key = prefix + entry.path
        if present[key] == entry.size { return }  // a rerun: landed before (the version's claim says same content)
        let expected = try sha256()
        let headers = ObjectHeaders(
            contentType: ObjectStoreLayout.contentType(of: entry.path), cacheControl: ObjectStoreLayout.immutable)
        let empty: PackageContentReading.Reader = { _ in 0 }
        let read = read ?? empty
        guard entry.size > UInt64(PackageObjectStreamer.partBytes) else {
            let bytes = try Self.read(Int(entry.size), from: read, last: true, of: entry)
            let bucket = bucket
            let hex = expected.hex
            try pipeline.submit(bytes: bytes.count) { try bucket.putContent(key, bytes, sha256: hex, headers: headers) }
            return
        }
        let upload = StreamedMultipartUpload(
            key: key, id: try bucket.startUpload(key, headers: headers), bucket: bucket)
        uploads.append(upload)
        let hasher = DigestHasher(.sha256)
        var left = entry.size
        while left > 0 {
            let count = Int(min(UInt64(PackageObjectStreamer.partBytes), left))
            let part = try Self.read(count, from: read, last: UInt64(count) == left, of: entry)
            hasher.update(part)
            try upload.submitPart(part, to: pipeline)
            left -= UInt64(count)
        }
        guard SHA256Value(hasher.finish()) == expected else { throw Self.changed(entry) }
        try upload.seal()
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
