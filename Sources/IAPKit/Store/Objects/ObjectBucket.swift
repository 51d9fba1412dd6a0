import IAPSystem

/// What the object version store needs of an S3-compatible bucket, with keys relative to the
/// store's prefix (`<product>/<version>/…`). A module that links an S3 client conforms to it and
/// registers the store with `ObjectStoreOpening`; the core builds carry no client.
///
/// Errors: a failed precondition (412) is `ObjectBucketConflict`; anything else the store could
/// not do is an `IAPKitError` (`.failed`, exit 2) whose message names the bucket and what to check.
package protocol ObjectBucket: Sendable {
    /// The store as the user wrote it (`s3://BUCKET/PREFIX`), for messages and reports.
    var location: String { get }

    /// The object at `key` and its ETag, or nil when there is none.
    func get(_ key: String) throws -> StoredObject?

    /// Writes `bytes` at `key` under `condition` (checked by the store as it lands); returns the new ETag.
    @discardableResult
    func put(_ key: String, _ bytes: [UInt8], headers: ObjectHeaders, condition: WriteCondition) throws -> String

    /// Uploads local files, several at a time, large ones as parallel multipart uploads, each
    /// checked by the store as it lands; memory stays bounded whatever their sizes.
    func upload(_ files: [FileUpload]) throws

    /// Downloads objects into new files below the local folder `folder`, several at a time, each
    /// streamed to disk; returns the bytes each file received, in the order of `files`.
    @discardableResult
    func download(_ files: [FileDownload], into folder: DirectoryHandle) throws -> [UInt64]

    /// Writes `bytes` at `key` (no condition); they are known to hash to `sha256` (32 bytes), and
    /// the store checks them against it as they land, refusing any other bytes. Nothing hashes
    /// them here.
    func putContent(_ key: String, _ bytes: [UInt8], sha256: [UInt8], headers: ObjectHeaders) throws

    /// Writes the `length` bytes `body` makes at `key` in one PUT, sent as they come; they are
    /// known to hash to `sha256` (32 bytes), which the store checks them against as they land,
    /// refusing other bytes. A body is read once: a failure for now only (the store busy or out of
    /// reach) is thrown as `ObjectBucketBusy`, for the caller to send the object again with a new body.
    func putStreamed(
        _ key: String, from body: any ObjectBodySource, length: UInt64, sha256: [UInt8], headers: ObjectHeaders)
        throws

    /// Starts a multipart upload to `key` whose parts each carry their SHA-256; returns its ID.
    func startUpload(_ key: String, headers: ObjectHeaders) throws -> String

    /// Sends part `number` (1-10,000) of the upload `id` from memory; its bytes are known to hash to
    /// `sha256` (32 bytes), which the store checks them against as they land. Returns the part.
    func uploadPart(_ key: String, upload id: String, number: Int, _ bytes: [UInt8], sha256: [UInt8]) throws
        -> UploadedObjectPart

    /// Joins the parts of the upload `id` (in number order) into the object at `key`.
    func completeUpload(_ key: String, upload id: String, parts: [UploadedObjectPart]) throws

    /// Abandons the upload `id`: the store drops its parts.
    func abortUpload(_ key: String, upload id: String) throws

    /// Deletes the object at `key` (nothing there is fine).
    func delete(_ key: String) throws

    /// Every object whose key starts with `prefix`, in key order.
    func list(prefix: String) throws -> [ObjectSummary]

    /// Aborts every unfinished multipart upload whose key starts with `prefix`; returns how many.
    @discardableResult
    func abortUploads(prefix: String) throws -> Int
}

/// An object's bytes and ETag.
package struct StoredObject: Sendable {
    /// The object's bytes.
    package var bytes: [UInt8]
    /// Its ETag as the store sent it (quotes included), for `WriteCondition.matching`.
    package var etag: String

    /// An object read from the store.
    package init(bytes: [UInt8], etag: String) {
        self.bytes = bytes
        self.etag = etag
    }
}

/// One listed object.
package struct ObjectSummary: Sendable, Equatable {
    /// The key, relative to the store's prefix.
    package var key: String
    /// Its size in bytes.
    package var size: UInt64

    /// A listed object.
    package init(key: String, size: UInt64) {
        self.key = key
        self.size = size
    }
}

/// The headers an object is stored with: what it is, and how long a CDN may keep it.
package struct ObjectHeaders: Sendable, Equatable {
    /// `Content-Type`.
    package var contentType: String
    /// `Cache-Control`.
    package var cacheControl: String

    /// Headers of an object.
    package init(contentType: String, cacheControl: String) {
        self.contentType = contentType
        self.cacheControl = cacheControl
    }
}

/// When a `put` may replace what is at its key.
package enum WriteCondition: Sendable, Equatable {
    /// Always.
    case none
    /// Only if nothing is there (`If-None-Match: *`).
    case absent
    /// Only if the object there still has this ETag (`If-Match`).
    case matching(String)
}

/// A local file to store at a key.
package struct FileUpload: Sendable {
    /// The file's path on this machine.
    package var path: String
    /// The key it goes to, relative to the store's prefix.
    package var key: String
    /// Its size in bytes.
    package var size: UInt64
    /// The headers it is stored with.
    package var headers: ObjectHeaders
}

/// An object to store in a new local file.
package struct FileDownload: Sendable {
    /// The key it comes from, relative to the store's prefix.
    package var key: String
    /// The file's path below the folder it goes into (its folders already made).
    package var path: String
    /// The new file's permission bits.
    package var mode: UInt32
}

/// A conditional write lost: someone else wrote the key since it was read (HTTP 412).
package struct ObjectBucketConflict: Error, Sendable, CustomStringConvertible {
    /// The key, relative to the store's prefix.
    package var key: String

    /// A lost conditional write at `key`.
    package init(key: String) { self.key = key }

    package var description: String { "\(key) was changed by someone else meanwhile" }
}

/// A part of a multipart upload that landed: its ETag and the SHA-256 (32 bytes) the store checked
/// it against, as the upload's completion lists them.
package struct UploadedObjectPart: Sendable, Equatable {
    package var etag: String
    package var sha256: [UInt8]

    package init(etag: String, sha256: [UInt8]) {
        self.etag = etag
        self.sha256 = sha256
    }
}

/// An object's bytes made by one thread while another sends them.
package protocol ObjectBodySource: AnyObject, Sendable {
    /// Fills the start of `buffer` with the next bytes, waiting for them; returns how many (0: the
    /// end). Throws when they cannot come, and the object is then never stored.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

/// A streamed write failed for now only (the store busy or out of reach): its body is spent, and
/// the object may be sent again with a new one after a pause. `error` says what happened.
package struct ObjectBucketBusy: Error, Sendable, CustomStringConvertible {
    /// The store's error, as the bucket reports it.
    package var error: any Error

    /// A write to try again, that failed with `error`.
    package init(_ error: any Error) { self.error = error }

    package var description: String { "\(error)" }
}
