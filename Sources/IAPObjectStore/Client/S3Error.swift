/// Why an S3 request failed: a `kind` a caller acts on, the request it was, and S3's own code,
/// message and request ID. Its description names the bucket and key and what to check; it never
/// holds a secret (S3's error bodies are read for Code, Message and RequestId only).
package struct S3Error: Error, Equatable, Sendable, CustomStringConvertible {
    /// What a caller can do about it.
    package enum Kind: String, Sendable, Equatable {
        /// No such key, or no such multipart upload (404).
        case notFound
        /// A conditional write lost: `If-None-Match: *` found the key, `If-Match` another ETag (412).
        case preconditionFailed
        /// The credentials are valid but may not do this (403 AccessDenied): the bucket policy.
        case accessDenied
        /// The store refused the key or the signature (InvalidAccessKeyId, SignatureDoesNotMatch,
        /// an expired token after one refresh).
        case invalidCredentials
        /// The bucket does not exist at this endpoint.
        case noSuchBucket
        /// The bytes that arrived are not the bytes sent (BadDigest, a checksum mismatch).
        case integrityMismatch
        /// Worth trying again later: 500/503 (SlowDown), a refused connection, a timeout.
        case unavailable
        /// The settings cannot work: no credentials, a bad endpoint or store URL, an unreadable file.
        case invalidConfiguration
        /// Anything else S3 refused.
        case other
    }

    /// What went wrong.
    package var kind: Kind
    /// The operation: `PUT`, `GET`, `ListObjectsV2`, `presign`, ...
    package var operation: String
    /// The bucket, or "" when none is involved yet.
    package var bucket: String
    /// The key, when the request had one.
    package var key: String?
    /// The HTTP status, or nil when no response came.
    package var status: Int?
    /// S3's error code (`NoSuchKey`, `SlowDown`), or libcurl's error text for a transport failure.
    package var code: String?
    /// S3's message, or what this client found.
    package var message: String?
    /// S3's request ID, for the operator's support case.
    package var requestID: String?
    /// True when an earlier try of the same request failed in a way that may have let it land
    /// (the connection dropped, the store answered 5xx) before this answer: a write refused now
    /// may be refused because of the earlier try's own success.
    package var mayHaveLanded = false
    /// True when the request failed for now only (the store busy or out of reach, credentials read
    /// again meanwhile) and was not tried again because its body was a stream: sent again with a new
    /// body, after a pause, it may succeed.
    package var sendAgain = false

    /// An error from its parts.
    package init(
        _ kind: Kind, operation: String, bucket: String, key: String? = nil, status: Int? = nil,
        code: String? = nil, message: String? = nil, requestID: String? = nil
    ) {
        self.kind = kind
        self.operation = operation
        self.bucket = bucket
        self.key = key
        self.status = status
        self.code = code
        self.message = message
        self.requestID = requestID
    }

    /// This error, marked as following a try that may have landed.
    package func with(mayHaveLanded: Bool) -> S3Error {
        var error = self
        error.mayHaveLanded = mayHaveLanded
        return error
    }

    /// This error, marked for its caller to send the request again with a new body.
    var toSendAgain: S3Error {
        var error = self
        error.sendAgain = true
        return error
    }

    /// True when trying again later may succeed.
    package var isRetryable: Bool { kind == .unavailable }

    /// One line: what failed, where, S3's words, and what to check.
    package var description: String {
        var target = bucket.isEmpty ? "" : " s3://\(bucket)"
        if let key, !bucket.isEmpty { target += "/\(key)" }
        var text = "\(operation)\(target) failed"
        var details: [String] = []
        if let status { details.append("HTTP \(status)") }
        if let code { details.append(code) }
        if !details.isEmpty { text += " (" + details.joined(separator: " ") + ")" }
        if let message, !message.isEmpty { text += ": \(message)" }
        if let requestID { text += " [request \(requestID)]" }
        return text + "; " + advice
    }

    /// What an operator checks for this kind of failure.
    private var advice: String {
        switch kind {
        case .notFound: "the object (or upload) is not there"
        case .preconditionFailed: "another writer changed the object first; read it again and decide"
        case .accessDenied:
            "the credentials work but may not do this: check the bucket policy or the key's IAM policy"
        case .invalidCredentials:
            "check AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN (or AWS_PROFILE and "
                + "~/.aws/credentials), and that the clock is right"
        case .noSuchBucket:
            "check the bucket name and the endpoint (AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, AWS_REGION)"
        case .integrityMismatch: "the bytes changed on the way; try again, and check the file is not being written"
        case .unavailable:
            "the store is unreachable or busy: check the endpoint (AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL), "
                + "the network and proxies; try again later"
        case .invalidConfiguration:
            "fix the setting named (for a bucket in another region: AWS_REGION, or the profile's region)"
        case .other: "see S3's message"
        }
    }
}
