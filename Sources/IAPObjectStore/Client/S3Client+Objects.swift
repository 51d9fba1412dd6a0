package import IAPSystem

extension S3Client {
    /// The object at `key` (or `range` of it: first and last byte, inclusive) in memory; more than
    /// `maxBytes` is an error rather than a cut.
    package func get(_ key: String, range: ClosedRange<UInt64>? = nil, maxBytes: Int = 16 << 20) throws(S3Error)
        -> S3Object
    {
        let response = try send(
            Operation(name: "GET", method: "GET", key: key, headers: rangeHeader(range), sink: .memory(limit: maxBytes))
        )
        return S3Object(
            info: S3ObjectInfo(headers: response.headers, size: UInt64(response.body.count)), bytes: response.body)
    }

    /// Streams the object at `key` (or `range` of it) into `file` from `offset`, written in place,
    /// so memory stays small whatever the size; a retry writes the same bytes again.
    @discardableResult
    package func get(_ key: String, range: ClosedRange<UInt64>? = nil, into file: FileDescriptor, at offset: UInt64 = 0)
        throws(S3Error) -> S3ObjectInfo
    {
        let response = try send(
            Operation(
                name: "GET", method: "GET", key: key, headers: rangeHeader(range), sink: .file(file, offset: offset)))
        return S3ObjectInfo(headers: response.headers, size: response.bytesWritten)
    }

    /// The ETag, size and headers of the object at `key`, without its bytes.
    package func head(_ key: String) throws(S3Error) -> S3ObjectInfo {
        let response = try send(Operation(name: "HEAD", method: "HEAD", key: key))
        return S3ObjectInfo(headers: response.headers)
    }

    /// Writes `bytes` at `key` under `options`' condition, with `Content-MD5` and the SHA-256 in the
    /// signature, so the store refuses bytes that changed on the way; with `options.sha256` (known
    /// beforehand) that SHA-256 as `x-amz-checksum-sha256` instead, and the bytes are not hashed
    /// here at all. Returns the new ETag.
    @discardableResult
    package func put(_ key: String, bytes: [UInt8], options: S3PutOptions = S3PutOptions()) throws(S3Error) -> String {
        let digests = options.sha256.map(BodyDigests.init(knownSHA256:)) ?? BodyDigests(bytes)
        return try put(key, body: .bytes(bytes), digests: digests, options: options)
    }

    /// Writes `length` bytes of `file` from `offset` at `key`, streamed (read once for the digests,
    /// once as sent). Returns the new ETag.
    @discardableResult
    package func put(
        _ key: String, file: FileDescriptor, offset: UInt64 = 0, length: UInt64, options: S3PutOptions = S3PutOptions()
    ) throws(S3Error) -> String {
        let digests = try digestsOf(file, offset: offset, length: length, operation: "PUT", key: key)
        return try put(key, body: .file(file, offset: offset, length: length), digests: digests, options: options)
    }

    /// Writes the `length` bytes `stream` makes at `key`, sent as they come; they are known to hash
    /// to `sha256` (32 bytes), which the store checks them against (`x-amz-checksum-sha256`, and
    /// the signature's payload hash), refusing other bytes. Not tried again here (the stream is read
    /// once): a failure for now only is thrown with `sendAgain`. Returns the new ETag.
    @discardableResult
    package func put(
        _ key: String, stream: any HTTPBodyStream, length: UInt64, sha256: [UInt8],
        options: S3PutOptions = S3PutOptions()
    ) throws(S3Error) -> String {
        try put(
            key, body: .stream(stream, length: length), digests: BodyDigests(knownSHA256: sha256), options: options)
    }

    /// Removes the object at `key` (no error when there is none: S3 answers 204 either way).
    package func delete(_ key: String) throws(S3Error) {
        _ = try send(Operation(name: "DELETE", method: "DELETE", key: key))
    }

    private func put(_ key: String, body: HTTPBody, digests: BodyDigests, options: S3PutOptions) throws(S3Error)
        -> String
    {
        do {
            let response = try send(
                Operation(
                    name: "PUT", method: "PUT", key: key,
                    headers: digests.headers + options.objectHeaders + options.conditionHeaders, body: body,
                    payloadHash: digests.sha256Hex))
            return response.headers["etag"] ?? ""
        } catch {
            return try landedWrite(error, key: key, etag: digests.etag)
        }
    }

    /// The ETag of a write whose last try was refused (412, or 404 for a finished upload) only
    /// because an earlier try of it landed, as a HEAD showing our bytes' ETag proves; else `error`.
    func landedWrite(_ error: S3Error, key: String, etag: String?) throws(S3Error) -> String {
        guard error.mayHaveLanded, error.kind == .preconditionFailed || error.kind == .notFound, let etag,
            let info = try? head(key), info.etag == etag
        else { throw error }
        return etag
    }

    /// The digests of a file range; a read error is an `.other` error naming the file.
    func digestsOf(_ file: FileDescriptor, offset: UInt64, length: UInt64, operation: String, key: String)
        throws(S3Error) -> BodyDigests
    {
        do { return try BodyDigests(file: file, offset: offset, length: length) } catch {
            throw S3Error(
                .other, operation: operation, bucket: bucket, key: key,
                message: "cannot read \(length) bytes at \(offset) of \(file.path): \(error)")
        }
    }

    private func rangeHeader(_ range: ClosedRange<UInt64>?) -> [SignableRequest.Field] {
        guard let range else { return [] }
        return [.init("Range", "bytes=\(range.lowerBound)-\(range.upperBound)")]
    }
}
