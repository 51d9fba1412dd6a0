import Foundation
import IAPSystem
import IAPTestSupport
import Testing

@testable import IAPObjectStore

/// The client's signed requests and presigned URLs against botocore's (S3SigV4Auth,
/// S3SigV4QueryAuth) for the same requests, keys and clock: Fixtures/botocore-sign.py.
@Suite struct BotocoreSignatureTests {
    static let time = SigningTime(seconds: 1_764_331_200)  // 2025-11-28T12:00:00Z
    static let longTerm = S3Credentials(accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG")
    static let session = S3Credentials(
        accessKeyID: "ASIAEXAMPLE", secretAccessKey: "c2VjcmV0/+key", sessionToken: "FwoGZXIvYXdzE//token+/=")

    static func client(endpoint: S3Endpoint, region: String = "eu-west-1") throws -> S3Client {
        try S3Client(
            bucket: "iapkg-test", configuration: S3Configuration(region: region, endpoint: endpoint),
            credentials: S3CredentialSource(fixed: longTerm))
    }

    static let custom = try! S3Endpoint(url: "http://127.0.0.1:8333", setting: "test")

    /// Requests the store sends, with the headers and queries that matter.
    static let operations: [S3Client.Operation] = {
        let body = Array("{\"version\":\"1.2.0\"}".utf8)
        let digests = BodyDigests(body)
        return [
            S3Client.Operation(
                name: "PUT", method: "PUT", key: "games/pack/1.2.0/Contents/a b+c=ü~.bin",
                headers: digests.headers + [
                    .init("Content-Type", "application/json"), .init("Cache-Control", "no-cache"),
                    .init("If-None-Match", "*"),
                ], body: .bytes(body), payloadHash: digests.sha256Hex),
            S3Client.Operation(
                name: "ListObjectsV2", method: "GET", key: nil,
                query: [
                    .init("list-type", "2"), .init("prefix", "games/pack ü/"), .init("delimiter", "/"),
                    .init("continuation-token", "1/ab+c=="),
                ]),
            S3Client.Operation(
                name: "GET", method: "GET", key: "games/current.json", headers: [.init("Range", "bytes=0-99")]),
            S3Client.Operation(
                name: "UploadPart", method: "PUT", key: "big/file",
                query: [.init("partNumber", "3"), .init("uploadId", "2~abc/def+ghi")]),
        ]
    }()

    @Test func headerSignaturesMatchBotocore() throws {
        var cases: [[String: Any]] = []
        var ours: [String] = []
        for endpoint in [Self.custom, S3Endpoint.aws(region: "eu-west-1")] {
            let client = try Self.client(endpoint: endpoint)
            for credentials in [Self.longTerm, Self.session] {
                for operation in Self.operations {
                    let request = client.signedRequest(operation, credentials: credentials, time: Self.time)
                    ours.append(request.headers.first { $0.name == "Authorization" }?.value ?? "")
                    let skipped: Set<String> = [
                        "authorization", "x-amz-date", "x-amz-security-token", "x-amz-content-sha256",
                    ]
                    let body: [UInt8] = if case .bytes(let bytes) = operation.body { bytes } else { [] }
                    cases.append(
                        Self.botocoreCase(
                            method: operation.method, url: request.url, credentials: credentials,
                            headers: request.headers.filter { !skipped.contains($0.name.lowercased()) }, body: body,
                            region: "eu-west-1", presignExpires: nil))
                }
            }
        }
        let theirs = try Self.botocore(cases).map { $0["authorization"] ?? "" }
        #expect(ours.count == 16)
        #expect(ours == theirs)
    }

    @Test func presignedURLsMatchBotocore() throws {
        var cases: [[String: Any]] = []
        var ours: [String] = []
        for endpoint in [Self.custom, S3Endpoint.aws(region: "us-east-1")] {
            for credentials in [Self.longTerm, Self.session] {
                let client = try S3Client(
                    bucket: "iapkg-test", configuration: S3Configuration(region: "us-east-1", endpoint: endpoint),
                    credentials: S3CredentialSource(fixed: credentials))
                for key in ["games/pack/1.2.0/Contents/a b+c.bin", "ü/~x=y&z"] {
                    let url = try client.presignedGetURL(key, expiresIn: 300, at: Self.time)
                    ours.append(url)
                    let unsigned = String(url[..<(url.firstIndex(of: "?") ?? url.endIndex)])
                    let host = String(unsigned.dropFirst(endpoint.scheme.count + 3).prefix { $0 != "/" })
                    cases.append(
                        Self.botocoreCase(
                            method: "GET", url: unsigned, credentials: credentials, headers: [.init("Host", host)],
                            body: [], region: "us-east-1", presignExpires: 300))
                }
            }
        }
        let theirs = try Self.botocore(cases).map { $0["url"] ?? "" }
        #expect(ours.count == 8)
        for (mine, botocore) in zip(ours, theirs) {
            #expect(Self.parts(mine) == Self.parts(botocore))
        }
    }

    /// A URL's path and its query as a set of name=value pairs (the order may differ).
    static func parts(_ url: String) -> (String, Set<String>) {
        let split = url.split(separator: "?", maxSplits: 1)
        return (String(split[0]), Set(split.count > 1 ? split[1].split(separator: "&").map(String.init) : []))
    }

    static func botocoreCase(
        method: String, url: String, credentials: S3Credentials, headers: [SignableRequest.Field], body: [UInt8],
        region: String, presignExpires: Int?
    ) -> [String: Any] {
        [
            "method": method, "url": url, "headers": headers.map { [$0.name, $0.value] }, "bodyHex": Hex.encode(body),
            "accessKey": credentials.accessKeyID, "secretKey": credentials.secretAccessKey,
            "token": credentials.sessionToken as Any? ?? NSNull(), "region": region,
            "time": time.seconds, "presignExpires": presignExpires as Any? ?? NSNull(),
        ]
    }

    /// botocore's answers for `cases`.
    static func botocore(_ cases: [[String: Any]]) throws -> [[String: String]] {
        let script = Harness.packageRoot.appendingPathComponent("Tests/IAPObjectStoreTests/Fixtures/botocore-sign.py")
        let input = try JSONSerialization.data(withJSONObject: cases)
        let result = try Harness.run(["python3", script.path], stdin: input)
        #expect(result.status == 0, "\(result.stderr)")
        return try JSONSerialization.jsonObject(with: result.stdoutData) as? [[String: String]] ?? []
    }
}
