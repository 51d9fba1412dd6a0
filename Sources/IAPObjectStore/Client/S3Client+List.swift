internal import XMLKit

extension S3Client {
    /// One page of the keys under `prefix` (ListObjectsV2): with a `delimiter`, keys past it are
    /// folded into common prefixes; `continuationToken` is the previous page's next token.
    package func list(prefix: String, delimiter: String? = nil, continuationToken: String? = nil, maxKeys: Int = 1000)
        throws(S3Error) -> S3ListPage
    {
        var query: [SignableRequest.Field] = [
            .init("list-type", "2"), .init("prefix", prefix), .init("max-keys", String(maxKeys)),
        ]
        if let delimiter { query.append(.init("delimiter", delimiter)) }
        if let continuationToken { query.append(.init("continuation-token", continuationToken)) }
        let response = try send(Operation(name: "ListObjectsV2", method: "GET", key: nil, query: query))
        let root = try document(response.body, named: "ListBucketResult", operation: "ListObjectsV2")
        let objects = root.children(named: "Contents").map { item in
            S3ListedObject(
                key: item.child("Key")?.text ?? "", size: UInt64(item.child("Size")?.text ?? "") ?? 0,
                etag: item.child("ETag")?.text ?? "", lastModified: item.child("LastModified")?.text ?? "")
        }
        let prefixes = root.children(named: "CommonPrefixes").compactMap { $0.child("Prefix")?.text }
        let truncated = root.child("IsTruncated")?.text == "true"
        let next = truncated ? root.child("NextContinuationToken")?.text : nil
        if truncated && (next ?? "").isEmpty {
            throw S3Error(
                .other, operation: "ListObjectsV2", bucket: bucket, key: prefix,
                message: "the store said the listing goes on but gave no continuation token")
        }
        return S3ListPage(objects: objects, commonPrefixes: prefixes, nextContinuationToken: next)
    }

    /// Every key under `prefix` (and the common prefixes, with a delimiter), page after page.
    package func listAll(prefix: String, delimiter: String? = nil) throws(S3Error) -> S3ListPage {
        var all = S3ListPage(objects: [], commonPrefixes: [], nextContinuationToken: nil)
        var token: String?
        repeat {
            let page = try list(prefix: prefix, delimiter: delimiter, continuationToken: token)
            all.objects += page.objects
            all.commonPrefixes += page.commonPrefixes
            token = page.nextContinuationToken
        } while token != nil
        return all
    }

    /// Removes `keys` (DeleteObjects, 1,000 a request) and returns the keys the store could not
    /// remove with its reason; keys that were not there count as removed.
    package func delete(keys: [String]) throws(S3Error) -> [(key: String, reason: String)] {
        var failed: [(key: String, reason: String)] = []
        var start = 0
        while start < keys.count {
            let batch = keys[start..<min(start + 1000, keys.count)]
            let body = Array(
                ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Delete><Quiet>true</Quiet>"
                    + batch.map { "<Object><Key>\(XMLEscaping.escape($0))</Key></Object>" }.joined() + "</Delete>").utf8
            )
            let digests = BodyDigests(body)
            let response = try send(
                Operation(
                    name: "DeleteObjects", method: "POST", key: nil, query: [.init("delete", "")],
                    headers: digests.headers + [.init("Content-Type", "application/xml")], body: .bytes(body),
                    payloadHash: digests.sha256Hex))
            let root = try document(response.body, named: "DeleteResult", operation: "DeleteObjects")
            for error in root.children(named: "Error") {
                let reason = [error.child("Code")?.text, error.child("Message")?.text].compactMap { $0 }
                    .joined(separator: ": ")
                failed.append((error.child("Key")?.text ?? "", reason))
            }
            start += batch.count
        }
        return failed
    }

    /// The XML document of a 2xx response, whose root must be `name`; an `Error` document (S3 can
    /// answer 200 with one) becomes the error it describes.
    func document(_ body: [UInt8], named name: String, operation: String, key: String? = nil) throws(S3Error)
        -> XMLElement
    {
        let fields = S3ErrorResponse.errorFields(body)
        if let code = fields["Code"] {
            throw S3Error(
                S3ErrorResponse.kind(status: 200, code: code), operation: operation, bucket: bucket, key: key,
                status: 200, code: code, message: fields["Message"], requestID: fields["RequestId"])
        }
        do {
            let root = try XMLElement.parse(body, doctype: .forbidden, limits: XMLLimits(maxBytes: 16 << 20))
            guard root.name == name else {
                throw XMLError(.malformed, "the root element is <\(root.name)>, not <\(name)>")
            }
            return root
        } catch {
            throw S3Error(
                .other, operation: operation, bucket: bucket, key: key,
                message: "the store's answer is not the XML expected: \(error)")
        }
    }
}
