internal import COpenSSL
import Foundation
import IAPPurchase

/// A root, an intermediate and a leaf made in the test, shaped as Apple's StoreKit chain (P-384
/// root and intermediate signing with SHA-384, a P-256 leaf, Apple's marker extensions), each part
/// changeable to make one thing wrong; and signed transactions made with them. Made with libcrypto.
package struct TestPKI: Sendable {
    /// What to make wrong.
    package struct Options: Sendable {
        /// Leave the leaf's marker extension out.
        package var leafMarker = true
        /// Leave the intermediate's marker extension out.
        package var intermediateMarker = true
        /// Give the leaf a P-384 key instead of P-256.
        package var leafP384 = false
        /// Give the intermediate a P-256 key instead of P-384.
        package var intermediateP256 = false
        /// Sign the leaf with SHA-256 instead of SHA-384.
        package var leafSHA256 = false
        /// The leaf's validity.
        package var leafValidity = TestPKI.start...TestPKI.end
        /// Make the intermediate not a CA (basic constraints).
        package var intermediateIsCA = true
        /// Give the root a P-256 key instead of P-384.
        package var rootP256 = false
        /// The intermediate's validity.
        package var intermediateValidity = TestPKI.start...TestPKI.end
        /// Mark Apple's two marker extensions critical.
        package var criticalMarkers = false
        /// Extensions of these identifiers, critical, on the leaf (a verifier cannot understand them).
        package var leafUnknownCritical: [String] = []

        /// Options with every part right but those given.
        package init(
            leafMarker: Bool = true, intermediateMarker: Bool = true, leafP384: Bool = false,
            intermediateP256: Bool = false, leafSHA256: Bool = false,
            leafValidity: ClosedRange<Date> = TestPKI.start...TestPKI.end, intermediateIsCA: Bool = true,
            rootP256: Bool = false, intermediateValidity: ClosedRange<Date> = TestPKI.start...TestPKI.end,
            criticalMarkers: Bool = false, leafUnknownCritical: [String] = []
        ) {
            self.leafMarker = leafMarker
            self.intermediateMarker = intermediateMarker
            self.leafP384 = leafP384
            self.intermediateP256 = intermediateP256
            self.leafSHA256 = leafSHA256
            self.leafValidity = leafValidity
            self.intermediateIsCA = intermediateIsCA
            self.rootP256 = rootP256
            self.intermediateValidity = intermediateValidity
            self.criticalMarkers = criticalMarkers
            self.leafUnknownCritical = leafUnknownCritical
        }
    }

    /// Apple's leaf marker extension.
    package static let leafMarker = "1.2.840.113635.100.6.11.1"
    /// Apple's intermediate marker extension.
    package static let intermediateMarker = "1.2.840.113635.100.6.2.1"

    /// Unpadded base64url of `bytes`.
    package static func base64URL<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// The start of every validity period: 2020-01-01.
    package static let start = Date(timeIntervalSince1970: 1_577_836_800)
    /// The end of every validity period: 2040-01-01.
    package static let end = Date(timeIntervalSince1970: 2_208_988_800)
    /// A signing date inside them: 2026-11-25.
    package static let signedDate = Date(timeIntervalSince1970: 1_795_564_800)

    /// The root's DER bytes.
    package let root: [UInt8]
    /// The intermediate's DER bytes.
    package let intermediate: [UInt8]
    /// The leaf's DER bytes.
    package let leaf: [UInt8]
    /// The leaf's key, the JWS signer when it is P-256.
    private let leafKey: TestKey
    /// False when the leaf was given a P-384 key (its JWS signature is then junk).
    private let leafIsP256: Bool

    /// A chain made with `options`; `rootName` tells roots of different tests apart.
    package init(_ options: Options = Options(), rootName: String = "Test Root CA - G3") throws {
        let rootKey = try TestKey(p256: options.rootP256)
        let caUsage = (NID_key_usage, "critical,keyCertSign,cRLSign")
        root = try TestCertificate.make(
            subject: rootName, issuer: rootName, key: rootKey, signer: rootKey, validity: Self.start...Self.end,
            extensions: [(NID_basic_constraints, "critical,CA:TRUE"), caUsage])
        let intermediateName = "Test Worldwide Developer Relations G6"
        let intermediateKey = try TestKey(p256: options.intermediateP256)
        intermediate = try TestCertificate.make(
            subject: intermediateName, issuer: rootName, key: intermediateKey, signer: rootKey,
            validity: options.intermediateValidity,
            extensions: [
                (NID_basic_constraints, options.intermediateIsCA ? "critical,CA:TRUE,pathlen:0" : "critical,CA:FALSE"),
                caUsage,
            ],
            markers: options.intermediateMarker ? [(Self.intermediateMarker, options.criticalMarkers)] : [])
        leafIsP256 = !options.leafP384
        leafKey = try TestKey(p256: leafIsP256)
        leaf = try TestCertificate.make(
            subject: "Test StoreKit Signing", issuer: intermediateName, key: leafKey, signer: intermediateKey,
            sha256: options.leafSHA256, validity: options.leafValidity,
            extensions: [(NID_basic_constraints, "critical,CA:FALSE")],
            markers: (options.leafMarker ? [(Self.leafMarker, options.criticalMarkers)] : [])
                + options.leafUnknownCritical.map { ($0, true) })
    }

    /// The anchors a verifier trusting this root holds.
    package var anchors: TrustAnchors { get throws { try TrustAnchors(der: [root]) } }

    /// The root as a PEM file's text.
    package var rootPEM: String {
        "-----BEGIN CERTIFICATE-----\n" + Data(root).base64EncodedString(options: .lineLength64Characters)
            + "\n-----END CERTIFICATE-----\n"
    }

    /// Standard base64 DER of `certificate`, as `x5c` holds it.
    package static func x5c(_ certificate: [UInt8]) throws -> String {
        Data(certificate).base64EncodedString()
    }

    /// A payload with the fields of a valid purchase of `product`, changed by `edit`.
    package static func payload(
        product: String = "com.example.game.levels.pack1", edit: (inout [String: Any]) -> Void = { _ in }
    ) -> [String: Any] {
        var fields: [String: Any] = [
            "bundleId": "com.example.game", "productId": product, "environment": "Production",
            "type": "Non-Consumable", "signedDate": Int64(signedDate.timeIntervalSince1970 * 1000),
            "purchaseDate": Int64(signedDate.timeIntervalSince1970 * 1000) - 5000,
            "transactionId": "2000000123456789", "originalTransactionId": "2000000123456789",
            "inAppOwnershipType": "PURCHASED", "quantity": 1, "storefront": "USA",
        ]
        edit(&fields)
        return fields
    }

    /// A JWS over `payload` with `header` (default: ES256 and this chain), signed by the leaf's key.
    package func jws(payload: [String: Any] = TestPKI.payload(), header: [String: Any]? = nil) throws -> String {
        let header = try header ?? ["alg": "ES256", "x5c": [Self.x5c(leaf), Self.x5c(intermediate), Self.x5c(root)]]
        let input =
            TestPKI.base64URL(try JSONSerialization.data(withJSONObject: header, options: [.sortedKeys])) + "."
            + TestPKI.base64URL(try JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys]))
        let signature = leafIsP256 ? try leafKey.signES256(Array(input.utf8)) : Array(repeating: 1, count: 96)
        return input + "." + TestPKI.base64URL(signature)
    }
}
