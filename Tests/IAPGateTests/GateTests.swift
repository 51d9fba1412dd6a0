import Foundation
import IAPDelivery
import IAPPurchase
import IAPPurchaseTestSupport
import Testing

@testable import IAPGate

/// The gate's decisions in-process: request bodies, token checks with their statuses, and what
/// counts as a published product.
@Suite struct GateTests {
    let product = "com.example.game.levels.pack1"
    let now = Date(timeIntervalSince1970: 1_795_564_800)

    /// A store holding `product` at version 1.0, and a gate over it.
    func gate(_ folder: String, anchors: TrustAnchors? = nil) throws -> Gate {
        try FileManager.default.createDirectory(atPath: folder + "/\(product)/1.0", withIntermediateDirectories: true)
        try Data(
            #"{"manifestSHA256":"abababababababababababababababababababababababababababababababab","productIdentifier":"com.example.game.levels.pack1","schemaVersion":1,"version":"1.0"}"#
                .utf8
        ).write(to: URL(fileURLWithPath: folder + "/\(product)/current.json"))
        // Any certificate will do as an anchor for what is tested here: nothing reaches the chain.
        let anchors = try anchors ?? TrustAnchors(pem: [GateTests.anchorPEM])
        return Gate(
            verifier: TransactionVerifier(anchors: anchors, bundleId: "com.example.game", environment: .production),
            tokens: try DownloadTokens(key: Array(repeating: 3, count: 32)), products: PublishedProducts(root: folder),
            tokenTTL: 600, uriPrefix: "/")
    }

    func scratch() throws -> String {
        let path = NSTemporaryDirectory() + "gate-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func authorizeRefusesBadBodies() async throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let gate = try gate(folder)
        let cases: [(Int, String, String)] = [
            (400, "request-malformed", "not json"),
            (400, "request-malformed", "{}"),
            (400, "request-malformed", #"{"signedTransaction": 5}"#),
            (403, "jws-malformed", #"{"signedTransaction": "a.b"}"#),
            (403, "jws-base64", #"{"signedTransaction": "a.b.c"}"#),
            (413, "request-too-large", String(repeating: " ", count: Gate.maxBodySize + 1)),
        ]
        for (status, code, body) in cases {
            let answer = await gate.authorize(body: Array(body.utf8))
            #expect(answer.status == status && answer.code == code, "\(body.prefix(40))")
            let json = try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any]
            #expect((json?["error"] as? [String: Any])?["code"] as? String == code)
        }
    }

    @Test func aVerifiedPurchaseEarnsATokenForItsProduct() async throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let pki = try TestPKI()
        let gate = try gate(folder, anchors: try pki.anchors)
        let body = try JSONSerialization.data(withJSONObject: ["signedTransaction": try pki.jws()])
        let answer = await gate.authorize(body: Array(body), now: now)
        #expect(answer.status == 200 && answer.code == "ok" && answer.product == product)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])
        #expect(json["productId"] as? String == product)
        #expect(json["version"] as? String == "1.0")
        #expect(json["path"] as? String == "/\(product)/1.0/")
        #expect(json["manifestSHA256"] as? String == String(repeating: "ab", count: 32))
        #expect(json["expiresAt"] as? Int == Int(now.timeIntervalSince1970) + 600)
        let token = try #require(json["token"] as? String)
        let check = gate.check(
            originalURI: "/\(product)/1.0/manifest.json", authorization: ["Bearer \(token)"], now: now)
        #expect(check.status == 204)
        // A purchase of a product that is not published earns nothing.
        let other = try pki.jws(payload: TestPKI.payload(product: "com.example.game.levels.pack9"))
        let refused = await gate.authorize(
            body: Array(try JSONSerialization.data(withJSONObject: ["signedTransaction": other])), now: now)
        #expect(refused.status == 403 && refused.code == "product-unknown")
    }

    @Test func checkAnswersWithStatusesNginxUnderstands() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let gate = try gate(folder)
        let token = gate.tokens.issue(product: product, ttl: 600, now: now).token
        let file = "/\(product)/1.0/Contents/a.png"
        func check(_ uri: String?, _ authorization: [String]) -> (Int, String) {
            let answer = gate.check(originalURI: uri, authorization: authorization, now: now)
            return (answer.status, answer.code)
        }
        #expect(check(file, ["Bearer \(token)"]) == (204, "ok"))
        #expect(check(file, ["bearer  \(token) "]) == (204, "ok"))
        #expect(check(file, []) == (401, "token-missing"))
        #expect(check(file, ["Basic abc"]) == (401, "token-malformed"))
        #expect(check(file, ["Bearer \(token)", "Bearer \(token)"]) == (401, "token-malformed"))
        #expect(check("/com.example.other/1.0/a", ["Bearer \(token)"]) == (403, "token-other-product"))
        #expect(check("/\(product)/../com.example.other/1.0/a", ["Bearer \(token)"]) == (403, "uri-invalid"))
        #expect(check(file + "?token=\(token)", []) == (403, "token-in-query"))
        #expect(check(nil, ["Bearer \(token)"]) == (403, "uri-missing"))
        let later = gate.check(originalURI: file, authorization: ["Bearer \(token)"], now: now.addingTimeInterval(601))
        #expect(later.status == 401 && later.code == "token-expired")
    }

    @Test func publishedProductsAreTheOnesWithAReadableCurrentJSON() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = try gate(folder)
        let products = PublishedProducts(root: folder)
        #expect(products.current(of: product)?.version == "1.0")
        #expect(products.current(of: "com.example.none") == nil)
        #expect(products.current(of: "../\(product)") == nil)
        func write(_ name: String, _ json: String) throws {
            try FileManager.default.createDirectory(atPath: folder + "/" + name, withIntermediateDirectories: true)
            try Data(json.utf8).write(to: URL(fileURLWithPath: folder + "/\(name)/current.json"))
        }
        try write("com.a", #"{"manifestSHA256":"ab","productIdentifier":"com.b","version":"1.0"}"#)
        try write("com.c", #"{"manifestSHA256":"ab","productIdentifier":"com.c","version":"../../etc"}"#)
        try write("com.d", #"{"productIdentifier":"com.d","version":"1.0"}"#)
        try write("com.e", String(repeating: " ", count: DeliveryDocument.pointerLimit + 1))
        for name in ["com.a", "com.c", "com.d", "com.e"] { #expect(products.current(of: name) == nil, "\(name)") }
    }

    @Test func jsonStringsStayOnOneLine() {
        #expect(JSONWriter.quoted("a\"b\\c\nd\u{7}é\u{1F600}") == #""a\"b\\c\nd\u0007\u00e9\ud83d\ude00""#)
    }

    /// A self-signed P-256 certificate (any will do as an anchor for these tests).
    static let anchorPEM = """
        -----BEGIN CERTIFICATE-----
        MIIBgTCCASegAwIBAgIUObht3DtlwqeCdqXwCDlszSOAvDMwCgYIKoZIzj0EAwIw
        FjEUMBIGA1UEAwwLVGVzdCBBbmNob3IwHhcNMjYxMTI1MTYyNzMwWhcNMzYxMTIy
        MTYyNzMwWjAWMRQwEgYDVQQDDAtUZXN0IEFuY2hvcjBZMBMGByqGSM49AgEGCCqG
        SM49AwEHA0IABDZZ/imdOaDduNJ7JGDdfBwcB/DnlHyRkjCibwfFeVqAdjFJTTAq
        aMkxsqASq9r1Bb6DwNe8/cneeT2eQ/ndY7ejUzBRMB0GA1UdDgQWBBS1XJNXvnlm
        GbphsyJ89sNkrGtb3zAfBgNVHSMEGDAWgBS1XJNXvnlmGbphsyJ89sNkrGtb3zAP
        BgNVHRMBAf8EBTADAQH/MAoGCCqGSM49BAMCA0gAMEUCIAOUICOzSp2BIaEOdCGT
        5dxjpy1D7i8UafxM9xFm/RUEAiEAjXnYgCFv2BaOmwiTZbJmzF/hHKXv80VmaH2K
        dC/bJXM=
        -----END CERTIFICATE-----
        """
}
