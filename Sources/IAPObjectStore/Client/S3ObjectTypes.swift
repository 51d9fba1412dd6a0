/// What S3 says about an object: its ETag (quoted, as S3 sends it, the form `If-Match` takes),
/// size and the headers a CDN reads.
package struct S3ObjectInfo: Sendable, Equatable {
    /// The ETag, quoted (`"9b2cf535f27731c974343645a3985328"`).
    package var etag: String
    /// The bytes in the response (the whole object for GET and HEAD, the range's for a ranged GET).
    package var size: UInt64
    /// `Content-Type`, when the object has one.
    package var contentType: String?
    /// `Cache-Control`, when the object has one.
    package var cacheControl: String?
    /// `Last-Modified`, as S3 spells it.
    package var lastModified: String?

    /// The information in a response's headers (names lower-cased).
    init(headers: [String: String], size: UInt64? = nil) {
        etag = headers["etag"] ?? ""
        self.size = size ?? headers["content-length"].flatMap { UInt64($0) } ?? 0
        contentType = headers["content-type"]
        cacheControl = headers["cache-control"]
        lastModified = headers["last-modified"]
    }
}

/// An object read into memory.
package struct S3Object: Sendable {
    /// Its ETag, size and headers.
    package var info: S3ObjectInfo
    /// Its bytes (or the range's).
    package var bytes: [UInt8]
}

/// When a write may happen; a write whose condition fails is an error of kind `.preconditionFailed`.
package enum S3WriteCondition: Sendable, Equatable {
    /// Always.
    case none
    /// Only if no object has the key (`If-None-Match: *`): the first writer wins.
    case ifAbsent
    /// Only if the object's ETag is still this one (`If-Match`): nobody wrote in between.
    case ifMatch(String)
}

/// The headers a written object carries, and the write's condition.
package struct S3PutOptions: Sendable, Equatable {
    /// `Content-Type` (nil: S3's default, `binary/octet-stream`).
    package var contentType: String?
    /// `Cache-Control` (`public, max-age=31536000, immutable`, `no-cache`).
    package var cacheControl: String?
    /// When the write may happen.
    package var condition: S3WriteCondition
    /// The SHA-256 (32 bytes) the bytes are known to have, taken when they were first read: a `put`
    /// from memory sends it as `x-amz-checksum-sha256` and as the signature's payload hash, without
    /// hashing the bytes again, and the store refuses other bytes (`.integrityMismatch`).
    package var sha256: [UInt8]?

    /// Options from their parts.
    package init(
        contentType: String? = nil, cacheControl: String? = nil, condition: S3WriteCondition = .none,
        sha256: [UInt8]? = nil
    ) {
        self.contentType = contentType
        self.cacheControl = cacheControl
        self.condition = condition
        self.sha256 = sha256
    }

    /// The object headers as request headers (the condition left out).
    var objectHeaders: [SignableRequest.Field] {
        var headers: [SignableRequest.Field] = []
        if let contentType { headers.append(.init("Content-Type", contentType)) }
        if let cacheControl { headers.append(.init("Cache-Control", cacheControl)) }
        return headers
    }

    /// The condition as a request header.
    var conditionHeaders: [SignableRequest.Field] {
        switch condition {
        case .none: []
        case .ifAbsent: [.init("If-None-Match", "*")]
        case .ifMatch(let etag): [.init("If-Match", etag)]
        }
    }
}

/// One object in a listing.
package struct S3ListedObject: Sendable, Equatable {
    /// The whole key.
    package var key: String
    /// The size in bytes.
    package var size: UInt64
    /// The ETag, quoted.
    package var etag: String
    /// When it was written, as S3 spells it (ISO 8601).
    package var lastModified: String
}

/// One page of ListObjectsV2.
package struct S3ListPage: Sendable, Equatable {
    /// The objects on this page, in key order.
    package var objects: [S3ListedObject]
    /// The common prefixes (with a delimiter: the "folders"), each ending in the delimiter.
    package var commonPrefixes: [String]
    /// The token for the next page, nil on the last.
    package var nextContinuationToken: String?
}

/// A part of a multipart upload, as CompleteMultipartUpload takes it.
package struct S3UploadedPart: Sendable, Equatable {
    /// 1 to 10,000.
    package var number: Int
    /// The part's ETag, quoted.
    package var etag: String
    /// The part's SHA-256 (32 bytes), for an upload started with `x-amz-checksum-algorithm: SHA256`.
    package var sha256: [UInt8]?

    /// A part from its number, ETag and (for a checksummed upload) SHA-256.
    package init(number: Int, etag: String, sha256: [UInt8]? = nil) {
        self.number = number
        self.etag = etag
        self.sha256 = sha256
    }
}

/// A multipart upload in progress (ListMultipartUploads).
package struct S3MultipartUpload: Sendable, Equatable {
    /// The key it will write.
    package var key: String
    /// Its ID.
    package var uploadID: String
    /// When it was started, as S3 spells it.
    package var initiated: String
}
