internal import XMLKit

/// S3's answer to a failed request turned into an `S3Error`: the XML body's Code, Message and
/// RequestId (nothing else of it: a SignatureDoesNotMatch body repeats the string to sign), or the
/// status alone for a HEAD, which has no body.
enum S3ErrorResponse {
    /// The error `response` stands for, for `operation` on `key` in `bucket`.
    static func error(_ response: HTTPResponse, operation: String, bucket: String, key: String?) -> S3Error {
        let fields = errorFields(response.body)
        let code = fields["Code"]
        return S3Error(
            kind(status: response.status, code: code), operation: operation, bucket: bucket, key: key,
            status: response.status, code: code, message: fields["Message"],
            requestID: fields["RequestId"] ?? response.headers["x-amz-request-id"])
    }

    /// The `Error` document's Code, Message and RequestId; empty when `body` is not one. Also used
    /// for a 200 response whose body is an error (CompleteMultipartUpload can answer so).
    static func errorFields(_ body: [UInt8]) -> [String: String] {
        guard !body.isEmpty,
            let root = try? XMLElement.parse(body, doctype: .forbidden, limits: XMLLimits(maxBytes: 64 * 1024)),
            root.name == "Error"
        else { return [:] }
        var fields: [String: String] = [:]
        for name in ["Code", "Message", "RequestId"] {
            if let text = root.child(name)?.text, !text.isEmpty { fields[name] = String(text.prefix(500)) }
        }
        return fields
    }

    /// What a caller can do about a failure with `status` and S3's `code`.
    static func kind(status: Int, code: String?) -> S3Error.Kind {
        switch code {
        case "NoSuchKey", "NoSuchUpload", "NoSuchVersion": return .notFound
        case "NoSuchBucket": return .noSuchBucket
        case "PreconditionFailed": return .preconditionFailed
        case "AccessDenied", "AllAccessDisabled", "AccountProblem": return .accessDenied
        case "InvalidAccessKeyId", "SignatureDoesNotMatch", "ExpiredToken", "InvalidToken", "TokenRefreshRequired",
            "RequestTimeTooSkewed":
            return .invalidCredentials
        // The bucket is in another region than the one signed for (S3's message names the right one).
        case "AuthorizationHeaderMalformed", "PermanentRedirect", "IllegalLocationConstraintException":
            return .invalidConfiguration
        case "BadDigest", "InvalidDigest", "XAmzContentSHA256Mismatch": return .integrityMismatch
        case "SlowDown", "InternalError", "ServiceUnavailable", "RequestTimeout", "ConditionalRequestConflict":
            return .unavailable
        default: break
        }
        switch status {
        case 404: return .notFound
        case 412: return .preconditionFailed
        case 403: return .accessDenied
        case 409 where code == nil, 429, 500...599: return .unavailable
        default: return .other
        }
    }

    /// Codes after which the credentials are read again and the request tried once more.
    static let refreshCodes: Set<String> = [
        "ExpiredToken", "InvalidToken", "TokenRefreshRequired", "InvalidAccessKeyId", "SignatureDoesNotMatch",
    ]
}
