import Foundation
import IAPObjectStore
import IAPPurchase
import IAPTestSupport
import Testing

@testable import IAPGate

/// The gate in front of a bucket (a real SeaweedFS): `GET /v1/content/…` answers a `307` to a
/// presigned URL that fetches the object and dies with the token; no token, the wrong product, a
/// hidden key or a path that climbs gets no `Location`; a current that moves is seen within seconds.
@Suite(.enabled(if: SeaweedServer.isInstalled, SeaweedServer.skipReason))
struct GateBucketTests {
    let product = "com.example.game.levels.pack1"

    /// A store in the bucket holding `product` at 1.0 (a file, and the store's own bookkeeping),
    /// and a gate over it that reads with the read-only identity.
    func setUp() throws -> (Gate, S3Client, S3Location) {
        let server = try SeaweedServer.shared()
        let location = try S3Location("s3://\(SeaweedServer.bucket)/\(SeaweedServer.uniquePrefix())/live")
        let writer = try S3Client(location: location, environment: AWSEnvironment(server.environment()))
        try put(writer, location, "1.0")
        _ = try writer.put(location.key("\(product)/1.0/Contents/a b.png"), bytes: Array("picture".utf8))
        _ = try writer.put(location.key("\(product)/.iapkg/claims/1.0"), bytes: Array("claim".utf8))
        let reader = try S3Client(
            location: location, environment: AWSEnvironment(server.environment(SeaweedServer.reader)))
        let gate = Gate(
            verifier: TransactionVerifier(
                anchors: try TrustAnchors(pem: [GateTests.anchorPEM]), bundleId: "com.example.game",
                environment: .production),
            tokens: try DownloadTokens(key: Array(repeating: 3, count: 32)),
            products: PublishedProducts(bucket: BucketFront(client: reader, location: location)), tokenTTL: 600,
            uriPrefix: Gate.contentPrefix)
        return (gate, writer, location)
    }

    /// Writes `product`'s current.json naming `version`.
    func put(_ writer: S3Client, _ location: S3Location, _ version: String) throws {
        let pointer =
            #"{"manifestSHA256":"\#(String(repeating: "ab", count: 32))","productIdentifier":"\#(product)","schemaVersion":1,"version":"\#(version)"}"#
        _ = try writer.put(location.key("\(product)/current.json"), bytes: Array(pointer.utf8))
    }

    /// The body curl gets from `url` and its status.
    func curl(_ url: String) throws -> (status: String, body: String) {
        let result = try Harness.run(["curl", "-s", "-w", "\n%{http_code}", url])
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        return (String(lines.last ?? ""), lines.dropLast().joined(separator: "\n"))
    }

    @Test func aValidTokenIsRedirectedToAPresignedURLThatDiesWithIt() throws {
        let (gate, _, _) = try setUp()
        let now = Date()
        let token = gate.tokens.issue(product: product, ttl: 600, now: now).token
        let answer = gate.content(
            uri: "/v1/content/\(product)/1.0/Contents/a%20b.png", authorization: ["Bearer \(token)"], now: now)
        #expect(answer.status == 307 && answer.code == "ok" && answer.product == product)
        let url = try #require(answer.location)
        #expect(url.contains("X-Amz-Expires=\(BucketFront.maxPresignedSeconds)&"))
        #expect(try curl(url) == ("200", "picture"))
        // A token with 42 s left gets a URL that lives 42 s at most.
        let short = gate.tokens.issue(product: product, ttl: 42, now: now).token
        let shortAnswer = gate.content(
            uri: "/v1/content/\(product)/1.0/Contents/a%20b.png", authorization: ["Bearer \(short)"], now: now)
        #expect(shortAnswer.location?.contains("X-Amz-Expires=42&") == true)
        // The signature covers the key: another key with the same query is refused by the store.
        let other = url.replacingOccurrences(of: "/1.0/Contents/a%20b.png", with: "/.iapkg/claims/1.0")
        #expect(try curl(other).status == "403")
    }

    @Test func noValidTokenNoHiddenKeyNoClimbingGetsNoLocation() throws {
        let (gate, _, _) = try setUp()
        let now = Date()
        let token = gate.tokens.issue(product: product, ttl: 600, now: now).token
        let otherToken = gate.tokens.issue(product: "com.example.other", ttl: 600, now: now).token
        let file = "/v1/content/\(product)/1.0/Contents/a%20b.png"
        let cases: [(String, [String], Int, String)] = [
            (file, [], 401, "token-missing"),
            (file, ["Bearer nope"], 401, "token-malformed"),
            (file, ["Bearer \(otherToken)"], 403, "token-other-product"),
            (file + "?token=\(token)", [], 403, "token-in-query"),
            ("/v1/content/\(product)/.iapkg/claims/1.0", ["Bearer \(token)"], 403, "uri-invalid"),
            ("/v1/content/\(product)/1.0/%2Eiapkg/x", ["Bearer \(token)"], 403, "uri-invalid"),
            ("/v1/content/\(product)/../com.example.other/1.0/a", ["Bearer \(token)"], 403, "uri-invalid"),
            ("/v1/content/\(product)/%2e%2e/com.example.other/a", ["Bearer \(token)"], 403, "uri-invalid"),
            ("/v1/content/\(product)/1.0//a", ["Bearer \(token)"], 403, "uri-invalid"),
            ("/v1/content/\(product)/1.0/", ["Bearer \(token)"], 403, "uri-invalid"),
            ("/v1/content/\(product)/1.0/%zz", ["Bearer \(token)"], 403, "uri-invalid"),
            ("/v1/content/\(product)/1.0/a%00b", ["Bearer \(token)"], 403, "uri-invalid"),
        ]
        for (uri, authorization, status, code) in cases {
            let answer = gate.content(uri: uri, authorization: authorization, now: now)
            #expect(answer.status == status && answer.code == code, "\(uri)")
            #expect(answer.location == nil, "\(uri)")
        }
        let expired = gate.content(uri: file, authorization: ["Bearer \(token)"], now: now.addingTimeInterval(601))
        #expect(expired.status == 401 && expired.location == nil)
        // Percent-decoding happens once: %252e stays the name "%2e", an ordinary file name.
        let once = gate.content(
            uri: "/v1/content/\(product)/1.0/%252e%252e", authorization: ["Bearer \(token)"], now: now)
        #expect(once.status == 307 && once.location?.contains("/1.0/%252e%252e?") == true)
    }

    @Test func aCurrentThatMovesIsSeenWithinSeconds() async throws {
        let (gate, writer, location) = try setUp()
        #expect(gate.products.current(of: product)?.version == "1.0")
        try put(writer, location, "1.1")
        let deadline = ContinuousClock.now + BucketFront.currentLifetime + .seconds(3)
        while gate.products.current(of: product)?.version != "1.1" && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(gate.products.current(of: product)?.version == "1.1")
        #expect(gate.products.current(of: "com.example.unpublished") == nil)
    }
}
