internal import IAPCrypto
internal import IAPSystem

/// AWS Signature Version 4 with HMAC-SHA256 (libcrypto through IAPCrypto): the `Authorization` header
/// of a request, or the query of a presigned URL. S3's rules: the path is encoded once and never
/// normalized; the caller puts `x-amz-content-sha256` among the headers.
package struct SigV4Signer: Sendable {
    /// The payload hash of a presigned request, whose body is not known when it is signed.
    package static let unsignedPayload = "UNSIGNED-PAYLOAD"
    /// The SHA-256 of no bytes, in hex.
    package static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    /// Whose key signs.
    package var credentials: S3Credentials
    /// The region in the credential scope (`us-east-1`).
    package var region: String
    /// The service in the credential scope (`s3`).
    package var service: String

    /// A signer for `service` in `region` with `credentials`.
    package init(credentials: S3Credentials, region: String, service: String = "s3") {
        self.credentials = credentials
        self.region = region
        self.service = service
    }

    /// The canonical request and its signed-header list (`host;x-amz-date`).
    package func canonicalRequest(_ request: SignableRequest, payloadHash: String) -> (
        text: String, signedHeaders: String
    ) {
        var merged: [String: [String]] = [:]
        for field in request.headers {
            merged[field.name.lowercased(), default: []].append(Self.trimmed(field.value))
        }
        let names = merged.keys.sorted()
        let headerLines = names.map { $0 + ":" + merged[$0, default: []].joined(separator: ",") + "\n" }.joined()
        let signedHeaders = names.joined(separator: ";")
        let encoded: [(name: String, value: String)] = request.query.map {
            (URIEncoding.encode($0.name), URIEncoding.encode($0.value))
        }
        let sorted = encoded.sorted { $0.name == $1.name ? $0.value < $1.value : $0.name < $1.name }
        let query = sorted.map { $0.name + "=" + $0.value }.joined(separator: "&")
        let text = [request.method, request.path, query, headerLines, signedHeaders, payloadHash]
            .joined(separator: "\n")
        return (text, signedHeaders)
    }

    /// The credential scope: `20150830/us-east-1/s3/aws4_request`.
    package func scope(_ time: SigningTime) -> String { "\(time.date)/\(region)/\(service)/aws4_request" }

    /// The string to sign for a canonical request at `time`.
    package func stringToSign(canonicalRequest: String, time: SigningTime) -> String {
        let hash = Hex.encode(DigestHasher.digest(.sha256, of: Array(canonicalRequest.utf8)))
        return "AWS4-HMAC-SHA256\n\(time.timestamp)\n\(scope(time))\n\(hash)"
    }

    /// The hex signature of `stringToSign`, with the key derived for `time`'s date.
    package func signature(stringToSign: String, time: SigningTime) -> String {
        var key = Array(("AWS4" + credentials.secretAccessKey).utf8)
        for part in [time.date, region, service, "aws4_request"] { key = Self.hmac(key, part) }
        return Hex.encode(Self.hmac(key, stringToSign))
    }

    /// `request` with `X-Amz-Date`, `X-Amz-Security-Token` (session credentials) and `Authorization`
    /// added; a date already among the headers is kept (the caller's clock).
    package func signed(_ request: SignableRequest, payloadHash: String, time: SigningTime) -> SignableRequest {
        var request = request
        if request.header("x-amz-date") == nil { request.headers.append(.init("X-Amz-Date", time.timestamp)) }
        if let token = credentials.sessionToken, request.header("x-amz-security-token") == nil {
            request.headers.append(.init("X-Amz-Security-Token", token))
        }
        let canonical = canonicalRequest(request, payloadHash: payloadHash)
        let signature = signature(stringToSign: stringToSign(canonicalRequest: canonical.text, time: time), time: time)
        request.headers.append(
            .init(
                "Authorization",
                "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(scope(time)), "
                    + "SignedHeaders=\(canonical.signedHeaders), Signature=\(signature)"))
        return request
    }

    /// `request` (its headers `Host` and nothing else signed) with the query of a presigned URL
    /// valid for `expires` seconds from `time`: the `X-Amz-*` parameters, `X-Amz-Signature` last.
    package func presigned(_ request: SignableRequest, expires: Int, time: SigningTime) -> SignableRequest {
        var request = request
        request.headers = request.headers.filter { $0.name.lowercased() == "host" }
        request.query += [
            .init("X-Amz-Algorithm", "AWS4-HMAC-SHA256"),
            .init("X-Amz-Credential", "\(credentials.accessKeyID)/\(scope(time))"),
            .init("X-Amz-Date", time.timestamp),
            .init("X-Amz-Expires", String(expires)),
            .init("X-Amz-SignedHeaders", "host"),
        ]
        if let token = credentials.sessionToken { request.query.append(.init("X-Amz-Security-Token", token)) }
        let canonical = canonicalRequest(request, payloadHash: Self.unsignedPayload)
        let signature = signature(stringToSign: stringToSign(canonicalRequest: canonical.text, time: time), time: time)
        request.query.append(.init("X-Amz-Signature", signature))
        return request
    }

    /// A header value with leading and trailing blanks gone and inner runs of spaces made one.
    private static func trimmed(_ value: String) -> String {
        value.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
    }

    /// HMAC-SHA256; libcrypto fails only when it cannot allocate, and then the server refuses the
    /// empty signature as not matching instead of this process stopping.
    private static func hmac(_ key: [UInt8], _ message: String) -> [UInt8] {
        MessageAuthentication.sha256(key: key, message: Array(message.utf8)) ?? []
    }
}
