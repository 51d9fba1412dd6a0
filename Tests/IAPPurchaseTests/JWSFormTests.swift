import Foundation
import IAPPurchaseTestSupport
import Testing

@testable import IAPPurchase

/// The compact form is read strictly: three canonical base64url parts, JSON objects, a size cap;
/// and every reason code the verifier has is produced by some test.
@Suite struct JWSFormTests {
    func refusal(_ jws: String) async throws -> PurchaseRefusal.Reason? {
        let pki = try TestPKI()
        let verifier = TransactionVerifier(
            anchors: try pki.anchors, bundleId: "com.example.game", environment: .production)
        do {
            _ = try await verifier.verify(jws)
            return nil
        } catch {
            return error.reason
        }
    }

    @Test func malformedCompactFormsAreRefused() async throws {
        let pki = try TestPKI()
        let parts = try pki.jws().split(separator: ".").map(String.init)
        let cases: [(PurchaseRefusal.Reason, String)] = [
            (.jwsMalformed, ""),
            (.jwsMalformed, parts[0] + "." + parts[1]),
            (.jwsMalformed, parts[0] + ".." + parts[2]),
            (.jwsMalformed, parts.joined(separator: ".") + "."),
            (.jwsMalformed, parts.joined(separator: ".") + "." + parts[2]),
            (.jwsBase64, parts[0] + "=." + parts[1] + "." + parts[2]),
            (.jwsBase64, parts[0] + "." + parts[1] + "." + parts[2] + "+"),
            (.jwsBase64, parts[0] + "." + parts[1] + "%." + parts[2]),
            (.jwsBase64, parts[0] + " ." + parts[1] + "." + parts[2]),
            (.jwsBase64, "A." + parts[1] + "." + parts[2]),
            // "QR" decodes to 0x41 with non-zero spare bits: not canonical ("QQ" is).
            (.jwsBase64, parts[0] + "." + parts[1] + "." + "QR"),
            (.jwsHeader, Base64URL.encode(Array("not json".utf8)) + "." + parts[1] + "." + parts[2]),
            (.jwsHeader, Base64URL.encode(Array("[1,2]".utf8)) + "." + parts[1] + "." + parts[2]),
            (.jwsHeader, Base64URL.encode(Array("{\"alg\":\"ES256\"".utf8)) + "." + parts[1] + "." + parts[2]),
            (.jwsPayload, parts[0] + "." + Base64URL.encode(Array("\"text\"".utf8)) + "." + parts[2]),
            (.jwsPayload, parts[0] + "." + Base64URL.encode(Array("{}".utf8)) + "." + parts[2]),
            (.jwsPayload, parts[0] + "." + Base64URL.encode(Array("{\"a\":1} x".utf8)) + "." + parts[2]),
            (.jwsTooLarge, String(repeating: "A", count: TransactionVerifier.maxJWSLength + 1)),
        ]
        for (reason, jws) in cases {
            #expect(try await refusal(jws) == reason, "\(reason)")
        }
    }

    @Test func hostileJSONIsRefusedNotTrusted() async throws {
        let pki = try TestPKI()
        let parts = try pki.jws().split(separator: ".").map(String.init)
        let deep = String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000)
        let cases: [(PurchaseRefusal.Reason, String)] = [
            (
                .jwsHeader,
                Base64URL.encode(Array(#"{"alg":"ES256","x5c":\#(deep)}"#.utf8)) + "." + parts[1] + "." + parts[2]
            ),
            (.jwsPayload, parts[0] + "." + Base64URL.encode(Array(#"{"bundleId":\#(deep)}"#.utf8)) + "." + parts[2]),
            (.jwsPayload, parts[0] + "." + Base64URL.encode([0x7B, 0xFF, 0xFE, 0x7D]) + "." + parts[2]),
            (.jwsHeader, Base64URL.encode([0x7B, 0x22, 0xC3, 0x28, 0x22, 0x7D]) + "." + parts[1] + "." + parts[2]),
        ]
        for (reason, jws) in cases {
            #expect(try await refusal(jws) == reason, "\(reason)")
        }
    }

    @Test func base64URLIsCanonical() {
        #expect(Base64URL.decode("QQ") == [0x41])
        #expect(Base64URL.decode("QR") == nil)
        #expect(Base64URL.decode("QQ==") == nil)
        #expect(Base64URL.decode("Q") == nil)
        #expect(Base64URL.decode("-_8") == [0xFB, 0xFF])
        #expect(Base64URL.decode("+/8") == nil)
        #expect(Base64URL.decodeStandard("+/8=") == [0xFB, 0xFF])
        #expect(Base64URL.decodeStandard("+/8") == nil)
        #expect(Base64URL.decodeStandard("+/9=") == nil)
    }

    @Test func trustAnchorsComeFromPEM() throws {
        let pki = try TestPKI()
        let pem = pki.rootPEM
        let anchors = try TrustAnchors(pem: [pem])
        #expect(anchors.der == [pki.root])
        #expect(throws: TrustAnchorError.self) { try TrustAnchors(pem: ["hello"]) }
        #expect(throws: TrustAnchorError.self) { try TrustAnchors(pem: [""]) }
        #expect(throws: TrustAnchorError.self) { try TrustAnchors(pem: [pem, "not a certificate"]) }
        #expect(throws: TrustAnchorError.self) { try TrustAnchors(der: []) }
        #expect(try TrustAnchors(der: [pki.root]).der == [pki.root])
        #expect(throws: TrustAnchorError.self) { try TrustAnchors(der: [Array(pki.root.dropLast())]) }
        #expect(throws: TrustAnchorError.self) { try TrustAnchors(der: [pki.root + [0]]) }
        // A broken block after a good one is an error, not a file read in part.
        let broken = pem + "-----BEGIN CERTIFICATE-----\nMIIBbroken\n-----END CERTIFICATE-----\n"
        #expect(throws: TrustAnchorError.self) { try TrustAnchors(pem: [broken]) }
    }
}
