package import IAPSystem
internal import XMLKit

extension S3Client {
    /// Starts a multipart upload to `key` with `options`' object headers; returns its upload ID.
    /// (The condition applies at completion, not here.) With `partsCarrySHA256`, every part must
    /// carry its SHA-256 (`x-amz-checksum-algorithm: SHA256`; `uploadPart(_:uploadID:number:bytes:sha256:)`).
    /// When an earlier try's answer was lost, the upload it may have started is aborted (`abortLostStarts`).
    package func createMultipartUpload(
        _ key: String, options: S3PutOptions = S3PutOptions(), partsCarrySHA256: Bool = false
    ) throws(S3Error) -> String {
        let started = MonotonicClock.seconds()
        let checksum: [SignableRequest.Field] = partsCarrySHA256 ? [.init("x-amz-checksum-algorithm", "SHA256")] : []
        let response = try send(
            Operation(
                name: "CreateMultipartUpload", method: "POST", key: key, query: [.init("uploads", "")],
                headers: options.objectHeaders + checksum))
        let root = try document(
            response.body, named: "InitiateMultipartUploadResult", operation: "CreateMultipartUpload", key: key)
        guard let uploadID = root.child("UploadId")?.text, !uploadID.isEmpty else {
            throw S3Error(
                .other, operation: "CreateMultipartUpload", bucket: bucket, key: key,
                message: "the store gave no UploadId")
        }
        if response.earlierTryMayHaveLanded {
            abortLostStarts(key, keeping: uploadID, within: MonotonicClock.seconds() - started)
        }
        return uploadID
    }

    /// Aborts the uploads to `key` that earlier tries of a CreateMultipartUpload started when their
    /// answers were lost: those the store lists for the key, other than `kept`, started no more than
    /// `seconds` (and a second of rounding) before it, by the store's own clock. Nothing else could
    /// abort them (their IDs never arrived). Another publisher's upload of the same key started in
    /// that window would be aborted too; its next part then fails and that publish is tried again.
    private func abortLostStarts(_ key: String, keeping kept: String, within seconds: Double) {
        guard let uploads = try? listMultipartUploads(prefix: key),
            let ours = uploads.first(where: { $0.uploadID == kept }).flatMap({ UTCTimestamp.seconds($0.initiated) })
        else { return }
        for upload in uploads where upload.key == key && upload.uploadID != kept {
            guard let started = UTCTimestamp.seconds(upload.initiated), started <= ours,
                Double(ours - started) <= seconds + 1
            else { continue }
            try? abortMultipartUpload(key, uploadID: upload.uploadID)
        }
    }

    /// Sends part `number` (1-10,000): `length` bytes of `file` from `offset`, streamed, with its own
    /// `Content-MD5` so the store checks it. Returns the part's number and ETag.
    package func uploadPart(
        _ key: String, uploadID: String, number: Int, file: FileDescriptor, offset: UInt64, length: UInt64
    ) throws(S3Error) -> S3UploadedPart {
        let digests = try digestsOf(file, offset: offset, length: length, operation: "UploadPart", key: key)
        return try sendPart(
            key, uploadID: uploadID, number: number, body: .file(file, offset: offset, length: length), digests: digests
        )
    }

    /// Sends part `number` (1-10,000) of an upload started with `partsCarrySHA256`, from memory,
    /// known to hash to `sha256` (32 bytes): sent as `x-amz-checksum-sha256` and as the signature's
    /// payload hash, so the store refuses other bytes, and not hashed here. Returns the part's
    /// number, ETag and checksum, as `completeMultipartUpload` needs them.
    package func uploadPart(_ key: String, uploadID: String, number: Int, bytes: [UInt8], sha256: [UInt8])
        throws(S3Error) -> S3UploadedPart
    {
        var part = try sendPart(
            key, uploadID: uploadID, number: number, body: .bytes(bytes), digests: BodyDigests(knownSHA256: sha256))
        part.sha256 = sha256
        return part
    }

    private func sendPart(_ key: String, uploadID: String, number: Int, body: HTTPBody, digests: BodyDigests)
        throws(S3Error) -> S3UploadedPart
    {
        let response = try send(
            Operation(
                name: "UploadPart", method: "PUT", key: key,
                query: [.init("partNumber", String(number)), .init("uploadId", uploadID)], headers: digests.headers,
                body: body, payloadHash: digests.sha256Hex))
        return S3UploadedPart(number: number, etag: response.headers["etag"] ?? "")
    }

    /// Joins `parts` (in number order) into the object at `key`, under `condition`; returns its ETag.
    @discardableResult
    package func completeMultipartUpload(
        _ key: String, uploadID: String, parts: [S3UploadedPart], condition: S3WriteCondition = .none
    ) throws(S3Error) -> String {
        let list = parts.sorted { $0.number < $1.number }.map { part in
            let checksum = part.sha256.map {
                "<ChecksumSHA256>" + String(decoding: Base64.encode($0[...]), as: UTF8.self) + "</ChecksumSHA256>"
            }
            return
                "<Part><PartNumber>\(part.number)</PartNumber>\(checksum ?? "")<ETag>\(XMLEscaping.escape(part.etag))</ETag></Part>"
        }
        let body = Array(
            ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><CompleteMultipartUpload>" + list.joined()
                + "</CompleteMultipartUpload>").utf8)
        let digests = BodyDigests(body)
        let response: HTTPResponse
        do {
            response = try send(
                Operation(
                    name: "CompleteMultipartUpload", method: "POST", key: key, query: [.init("uploadId", uploadID)],
                    headers: digests.headers + [.init("Content-Type", "application/xml")]
                        + S3PutOptions(condition: condition).conditionHeaders,
                    body: .bytes(body), payloadHash: digests.sha256Hex))
        } catch {
            return try landedWrite(error, key: key, etag: BodyDigests.multipartETag(parts))
        }
        let root = try document(
            response.body, named: "CompleteMultipartUploadResult", operation: "CompleteMultipartUpload", key: key)
        return root.child("ETag")?.text ?? response.headers["etag"] ?? ""
    }

    /// Abandons the upload `uploadID` to `key`: the store drops its parts.
    package func abortMultipartUpload(_ key: String, uploadID: String) throws(S3Error) {
        _ = try send(
            Operation(name: "AbortMultipartUpload", method: "DELETE", key: key, query: [.init("uploadId", uploadID)]))
    }

    /// The multipart uploads in progress whose keys start with `prefix`, page after page.
    package func listMultipartUploads(prefix: String) throws(S3Error) -> [S3MultipartUpload] {
        var uploads: [S3MultipartUpload] = []
        var markers: (key: String, uploadID: String)?
        while true {
            var query: [SignableRequest.Field] = [.init("uploads", ""), .init("prefix", prefix)]
            if let markers { query += [.init("key-marker", markers.key), .init("upload-id-marker", markers.uploadID)] }
            let response = try send(Operation(name: "ListMultipartUploads", method: "GET", key: nil, query: query))
            let root = try document(
                response.body, named: "ListMultipartUploadsResult", operation: "ListMultipartUploads", key: prefix)
            uploads += root.children(named: "Upload").map {
                S3MultipartUpload(
                    key: $0.child("Key")?.text ?? "", uploadID: $0.child("UploadId")?.text ?? "",
                    initiated: $0.child("Initiated")?.text ?? "")
            }
            guard root.child("IsTruncated")?.text == "true", let key = root.child("NextKeyMarker")?.text,
                let uploadID = root.child("NextUploadIdMarker")?.text, !(key.isEmpty && uploadID.isEmpty)
            else { return uploads }
            markers = (key, uploadID)
        }
    }
}
