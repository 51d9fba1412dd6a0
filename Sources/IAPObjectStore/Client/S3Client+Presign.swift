extension S3Client {
    /// The longest a presigned URL may live (SigV4's limit): seven days.
    package static let maximumPresignedLifetime = 604_800

    /// A URL anyone may GET `key` with for `seconds` (1 to 604,800) from `time`, signed by query
    /// (SigV4, `UNSIGNED-PAYLOAD`, only `host` signed, the session token in the query). Credentials
    /// that cannot be found are an error; no request is sent.
    package func presignedGetURL(_ key: String, expiresIn seconds: Int, at time: SigningTime = .now()) throws(S3Error)
        -> String
    {
        guard (1...Self.maximumPresignedLifetime).contains(seconds) else {
            throw S3Error(
                .invalidConfiguration, operation: "presign GET", bucket: bucket, key: key,
                message: "a presigned URL lives 1 to \(Self.maximumPresignedLifetime) seconds, not \(seconds)")
        }
        let endpoint = configuration.endpoint
        let host = endpoint.hostHeader(bucket: bucket)
        let request = SignableRequest(
            method: "GET", path: endpoint.path(bucket: bucket, key: key), headers: [.init("Host", host)])
        let signed = SigV4Signer(credentials: try credentials.current(), region: configuration.region)
            .presigned(request, expires: seconds, time: time)
        return "\(endpoint.scheme)://\(host)\(signed.path)?\(signed.encodedQuery)"
    }
}
