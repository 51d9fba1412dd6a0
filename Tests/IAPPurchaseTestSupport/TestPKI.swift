import Crypto
import Foundation
import IAPPurchase
import SwiftASN1
import X509

/// A root, an intermediate and a leaf made in the test, shaped as Apple's StoreKit chain (P-384
/// root and intermediate signing with SHA-384, a P-256 leaf, Apple's marker extensions), each part
/// changeable to make one thing wrong; and signed transactions made with them.
package struct TestPKI {
    /// What to make wrong.
    package struct Options {
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

        /// Options with every part right but those given.
        package init(
            leafMarker: Bool = true, intermediateMarker: Bool = true, leafP384: Bool = false,
            intermediateP256: Bool = false, leafSHA256: Bool = false,
            leafValidity: ClosedRange<Date> = TestPKI.start...TestPKI.end, intermediateIsCA: Bool = true,
            rootP256: Bool = false, intermediateValidity: ClosedRange<Date> = TestPKI.start...TestPKI.end
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
        }
    }

    /// Apple's leaf marker extension.
    package static let leafMarker: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 11, 1]
    /// Apple's intermediate marker extension.
    package static let intermediateMarker: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 2, 1]

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

    package let rootKey: Certificate.PrivateKey
    package let root: Certificate
    package let intermediateKey: Certificate.PrivateKey
    package let intermediate: Certificate
    package let leafKey: Certificate.PrivateKey
    package let leaf: Certificate
    /// The leaf's key when it is P-256 (the JWS signer).
    package let leafP256: P256.Signing.PrivateKey?

    /// A chain made with `options`; `rootName` tells roots of different tests apart.
    package init(_ options: Options = Options(), rootName: String = "Test Root CA - G3") throws {
        let rootSubject = try DistinguishedName { CommonName(rootName) }
        rootKey = options.rootP256 ? .init(P256.Signing.PrivateKey()) : .init(P384.Signing.PrivateKey())
        root = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: rootKey.publicKey,
            notValidBefore: Self.start, notValidAfter: Self.end, issuer: rootSubject, subject: rootSubject,
            signatureAlgorithm: .ecdsaWithSHA384,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
            }, issuerPrivateKey: rootKey)
        let intermediateSubject = try DistinguishedName { CommonName("Test Worldwide Developer Relations G6") }
        intermediateKey =
            options.intermediateP256 ? .init(P256.Signing.PrivateKey()) : .init(P384.Signing.PrivateKey())
        intermediate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: intermediateKey.publicKey,
            notValidBefore: options.intermediateValidity.lowerBound,
            notValidAfter: options.intermediateValidity.upperBound, issuer: rootSubject, subject: intermediateSubject,
            signatureAlgorithm: .ecdsaWithSHA384,
            extensions: try Certificate.Extensions {
                if options.intermediateIsCA {
                    Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                } else {
                    Critical(BasicConstraints.notCertificateAuthority)
                }
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                if options.intermediateMarker {
                    Certificate.Extension(
                        oid: TestPKI.intermediateMarker, critical: false, value: [0x05, 0x00])
                }
            }, issuerPrivateKey: rootKey)
        let p256 = options.leafP384 ? nil : P256.Signing.PrivateKey()
        leafP256 = p256
        leafKey = p256.map { .init($0) } ?? .init(P384.Signing.PrivateKey())
        leaf = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: leafKey.publicKey,
            notValidBefore: options.leafValidity.lowerBound, notValidAfter: options.leafValidity.upperBound,
            issuer: intermediateSubject,
            subject: try DistinguishedName { CommonName("Test StoreKit Signing") },
            signatureAlgorithm: options.leafSHA256 ? .ecdsaWithSHA256 : .ecdsaWithSHA384,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                if options.leafMarker {
                    Certificate.Extension(oid: TestPKI.leafMarker, critical: false, value: [0x05, 0x00])
                }
            }, issuerPrivateKey: intermediateKey)
    }

    /// The anchors a verifier trusting this root holds.
    package var anchors: TrustAnchors { get throws { try TrustAnchors([root]) } }

    /// Standard base64 DER of `certificate`, as `x5c` holds it.
    package static func x5c(_ certificate: Certificate) throws -> String {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return Data(serializer.serializedBytes).base64EncodedString()
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
        let signature: [UInt8]
        if let leafP256 {
            signature = Array(try leafP256.signature(for: Array(input.utf8)).rawRepresentation)
        } else {
            signature = Array(repeating: 1, count: 96)
        }
        return input + "." + TestPKI.base64URL(signature)
    }
}
