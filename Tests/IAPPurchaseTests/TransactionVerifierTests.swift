import Foundation
import IAPPurchaseTestSupport
import Testing

@testable import IAPPurchase

/// The verifier against chains and transactions made in the test: a valid purchase passes, and
/// each way a transaction can be wrong is refused with its own reason code.
@Suite struct TransactionVerifierTests {
    static let product = "com.example.game.levels.pack1"

    /// A verifier for com.example.game in Production trusting `pki`'s root, with one product published.
    func verifier(_ pki: TestPKI, environment: StoreEnvironment = .production) throws -> TransactionVerifier {
        TransactionVerifier(anchors: try pki.anchors, bundleId: "com.example.game", environment: environment)
    }

    /// The reason `jws` is refused for, or nil if it is accepted.
    func refusal(_ jws: String, by verifier: TransactionVerifier) async -> PurchaseRefusal.Reason? {
        do {
            _ = try await verifier.verify(jws) { $0 == Self.product }
            return nil
        } catch {
            return error.reason
        }
    }

    @Test func validPurchaseIsAccepted() async throws {
        let pki = try TestPKI()
        let transaction = try await verifier(pki).verify(try pki.jws()) { $0 == Self.product }
        #expect(transaction.productId == Self.product)
        #expect(transaction.bundleId == "com.example.game")
        #expect(transaction.transactionId == "2000000123456789")
        #expect(transaction.signedDate == TestPKI.signedDate)
        #expect(transaction.revocationDate == nil)
    }

    @Test func sandboxPurchaseIsAcceptedBySandboxVerifier() async throws {
        let pki = try TestPKI()
        let jws = try pki.jws(payload: TestPKI.payload { $0["environment"] = "Sandbox" })
        #expect(await refusal(jws, by: try verifier(pki, environment: .sandbox)) == nil)
        #expect(await refusal(jws, by: try verifier(pki)) == .environmentMismatch)
    }

    @Test func purchaseFieldsAreRefused() async throws {
        let pki = try TestPKI()
        let verifier = try verifier(pki)
        let cases: [(PurchaseRefusal.Reason, (inout [String: Any]) -> Void)] = [
            (.bundleMismatch, { $0["bundleId"] = "com.example.other" }),
            (.environmentMismatch, { $0["environment"] = "Sandbox" }),
            (.environmentMismatch, { $0["environment"] = "Xcode" }),
            (.revoked, { $0["revocationDate"] = Int64(1_795_564_900_000) }),
            (.notNonConsumable, { $0["type"] = "Consumable" }),
            (.notNonConsumable, { $0["type"] = "Auto-Renewable Subscription" }),
            (.productInvalid, { $0["productId"] = "../../etc" }),
            (.productInvalid, { $0["productId"] = "" }),
            (.productInvalid, { $0["productId"] = "com.example/levels" }),
            (.productUnknown, { $0["productId"] = "com.example.game.levels.pack9" }),
            (.jwsPayload, { $0["signedDate"] = "1795564800000" }),
            (.jwsPayload, { $0["signedDate"] = -1 }),
            (.jwsPayload, { $0.removeValue(forKey: "bundleId") }),
            (.jwsPayload, { $0["productId"] = 42 }),
            (.jwsPayload, { $0["revocationDate"] = "yesterday" }),
        ]
        for (reason, edit) in cases {
            #expect(await refusal(try pki.jws(payload: TestPKI.payload(edit: edit)), by: verifier) == reason)
        }
    }

    @Test func untrustedRootIsRefused() async throws {
        let pki = try TestPKI()
        let stranger = try TestPKI(rootName: "Test Root CA - G3")
        #expect(await refusal(try stranger.jws(), by: try verifier(pki)) == .untrustedRoot)
    }

    @Test func brokenChainIsRefused() async throws {
        let pki = try TestPKI()
        let other = try TestPKI()
        // The other chain's leaf (same issuer name, another intermediate key) under this intermediate.
        let header: [String: Any] = [
            "alg": "ES256",
            "x5c": [try TestPKI.x5c(other.leaf), try TestPKI.x5c(pki.intermediate), try TestPKI.x5c(pki.root)],
        ]
        #expect(await refusal(try other.jws(header: header), by: try verifier(pki)) == .chainInvalid)
        // An intermediate that is not a certificate authority.
        let notCA = try TestPKI(TestPKI.Options(intermediateIsCA: false))
        #expect(await refusal(try notCA.jws(), by: try verifier(notCA)) == .chainInvalid)
        // The chain in the wrong order.
        let swapped: [String: Any] = [
            "alg": "ES256",
            "x5c": [try TestPKI.x5c(pki.intermediate), try TestPKI.x5c(pki.leaf), try TestPKI.x5c(pki.root)],
        ]
        let reason = await refusal(try pki.jws(header: swapped), by: try verifier(pki))
        #expect(reason == .certificateKeyType)
        // A critical extension nobody here understands fails the chain (RFC 5280, 4.2).
        let unknown = try TestPKI(TestPKI.Options(leafUnknownCritical: ["1.3.6.1.4.1.99999.1"]))
        #expect(await refusal(try unknown.jws(), by: try verifier(unknown)) == .chainInvalid)
    }

    @Test func appleMarkersMayBeCritical() async throws {
        let pki = try TestPKI(TestPKI.Options(criticalMarkers: true))
        let transaction = try await verifier(pki).verify(try pki.jws()) { $0 == Self.product }
        #expect(transaction.productId == Self.product)
    }

    @Test func chainShapeIsRefused() async throws {
        let cases: [(PurchaseRefusal.Reason, TestPKI.Options)] = [
            (.leafMarkerMissing, TestPKI.Options(leafMarker: false)),
            (.intermediateMarkerMissing, TestPKI.Options(intermediateMarker: false)),
            (.certificateKeyType, TestPKI.Options(leafP384: true)),
            (.certificateKeyType, TestPKI.Options(intermediateP256: true)),
            (.certificateKeyType, TestPKI.Options(rootP256: true)),
            (.certificateSignatureAlgorithm, TestPKI.Options(leafSHA256: true)),
            (
                .certificateNotValidAtSignedDate,
                TestPKI.Options(intermediateValidity: TestPKI.start...Date(timeIntervalSince1970: 1_700_000_000))
            ),
            (
                .certificateNotValidAtSignedDate,
                TestPKI.Options(leafValidity: TestPKI.start...Date(timeIntervalSince1970: 1_700_000_000))
            ),
            (
                .certificateNotValidAtSignedDate,
                TestPKI.Options(leafValidity: Date(timeIntervalSince1970: 1_800_000_000)...TestPKI.end)
            ),
        ]
        for (reason, options) in cases {
            let pki = try TestPKI(options)
            #expect(await refusal(try pki.jws(), by: try verifier(pki)) == reason)
        }
    }

    @Test func x5cIsChecked() async throws {
        let pki = try TestPKI()
        let verifier = try verifier(pki)
        let leaf = try TestPKI.x5c(pki.leaf)
        let intermediate = try TestPKI.x5c(pki.intermediate)
        let root = try TestPKI.x5c(pki.root)
        let cases: [(PurchaseRefusal.Reason, Any)] = [
            (.x5cLength, [leaf, intermediate]),
            (.x5cLength, [leaf, intermediate, root, root]),
            (.x5cLength, [String]()),
            (.certificateMalformed, [leaf, "not base64!", root]),
            (.certificateMalformed, [leaf, Data("not a certificate".utf8).base64EncodedString(), root]),
            (.certificateMalformed, [String(leaf.dropLast(4)), intermediate, root]),
            (.jwsHeader, "leaf"),
            (.jwsHeader, [1, 2, 3]),
        ]
        for (reason, x5c) in cases {
            let jws = try pki.jws(header: ["alg": "ES256", "x5c": x5c])
            #expect(await refusal(jws, by: verifier) == reason)
        }
    }

    @Test func headerIsChecked() async throws {
        let pki = try TestPKI()
        let verifier = try verifier(pki)
        let chain = [try TestPKI.x5c(pki.leaf), try TestPKI.x5c(pki.intermediate), try TestPKI.x5c(pki.root)]
        #expect(await refusal(try pki.jws(header: ["alg": "none", "x5c": chain]), by: verifier) == .jwsAlgorithm)
        #expect(await refusal(try pki.jws(header: ["alg": "HS256", "x5c": chain]), by: verifier) == .jwsAlgorithm)
        #expect(await refusal(try pki.jws(header: ["alg": "ES384", "x5c": chain]), by: verifier) == .jwsAlgorithm)
        #expect(await refusal(try pki.jws(header: ["x5c": chain]), by: verifier) == .jwsHeader)
        #expect(await refusal(try pki.jws(header: ["alg": "ES256"]), by: verifier) == .jwsHeader)
        let critical: [String: Any] = ["alg": "ES256", "x5c": chain, "crit": ["exp"], "exp": 1]
        #expect(await refusal(try pki.jws(header: critical), by: verifier) == .jwsCritical)
    }

    @Test func signatureIsChecked() async throws {
        let pki = try TestPKI()
        let verifier = try verifier(pki)
        let jws = try pki.jws()
        let parts = jws.split(separator: ".").map(String.init)
        // Another payload under the original signature.
        let other = Base64URL.encode(
            try JSONSerialization.data(
                withJSONObject: TestPKI.payload(product: "com.example.game.levels.pack2"), options: [.sortedKeys]))
        #expect(await refusal(parts[0] + "." + other + "." + parts[2], by: verifier) == .signatureInvalid)
        // A signature flipped in one byte, one too short, and a DER signature instead of r‖s.
        var signature = Base64URL.decode(parts[2][...])!
        signature[10] ^= 0x01
        #expect(
            await refusal(parts[0] + "." + parts[1] + "." + Base64URL.encode(signature), by: verifier)
                == .signatureInvalid)
        let short = Base64URL.encode(signature.prefix(63))
        #expect(await refusal(parts[0] + "." + parts[1] + "." + short, by: verifier) == .signatureInvalid)
        // The same transaction signed by the intermediate's key is not the leaf's signature.
        #expect(await refusal(jws, by: verifier) == nil)
    }
}
