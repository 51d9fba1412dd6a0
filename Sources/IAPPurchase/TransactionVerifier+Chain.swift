import Crypto
import SwiftASN1
@_spi(FixedExpiryValidationTime) import X509

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension TransactionVerifier {
    /// Parses `x5c` and checks each certificate's own properties; returns the leaf.
    func verifyChain(_ x5c: [String], at signedDate: Date) throws(PurchaseRefusal) -> Certificate {
        guard x5c.count == 3 else {
            throw PurchaseRefusal(
                .x5cLength, "x5c holds \(x5c.count) certificates; a StoreKit chain is leaf, intermediate and root")
        }
        var chain: [Certificate] = []
        for (index, text) in x5c.enumerated() {
            guard let der = Base64URL.decodeStandard(text), let certificate = try? Certificate(derEncoded: der) else {
                throw PurchaseRefusal(
                    .certificateMalformed, "x5c[\(index)] is not a standard-base64 DER X.509 certificate")
            }
            chain.append(certificate)
        }
        let (leaf, intermediate, root) = (chain[0], chain[1], chain[2])
        guard anchors.contains(root) else {
            throw PurchaseRefusal(
                .untrustedRoot, "the chain's root (\(Printable.clip(root.subject.description))) is not a trust anchor")
        }
        guard P384.Signing.PublicKey(root.publicKey) != nil, P384.Signing.PublicKey(intermediate.publicKey) != nil
        else {
            throw PurchaseRefusal(.certificateKeyType, "the root and the intermediate must hold P-384 keys")
        }
        guard P256.Signing.PublicKey(leaf.publicKey) != nil else {
            throw PurchaseRefusal(.certificateKeyType, "the leaf must hold a P-256 key")
        }
        guard intermediate.signatureAlgorithm == .ecdsaWithSHA384, leaf.signatureAlgorithm == .ecdsaWithSHA384 else {
            throw PurchaseRefusal(
                .certificateSignatureAlgorithm, "the intermediate and the leaf must be signed with ECDSA SHA-384")
        }
        guard leaf.extensions[oid: AppleChainPolicy.leafMarker] != nil else {
            throw PurchaseRefusal(
                .leafMarkerMissing, "the leaf lacks Apple's marker extension 1.2.840.113635.100.6.11.1")
        }
        guard intermediate.extensions[oid: AppleChainPolicy.intermediateMarker] != nil else {
            throw PurchaseRefusal(
                .intermediateMarkerMissing, "the intermediate lacks Apple's marker extension 1.2.840.113635.100.6.2.1")
        }
        for (name, certificate) in [("leaf", leaf), ("intermediate", intermediate), ("root", root)]
        where !(certificate.notValidBefore...certificate.notValidAfter).contains(signedDate) {
            throw PurchaseRefusal(
                .certificateNotValidAtSignedDate,
                "the \(name) certificate was not valid at the transaction's signedDate")
        }
        return leaf
    }

    /// Builds and validates the path leaf → x5c[1] → anchor with swift-certificates (RFC 5280 at
    /// `signedDate`: signatures, basic constraints, names; Apple's markers), and requires that it is
    /// exactly the three certificates given.
    func verifyPath(leaf: Certificate, x5c: [String], at signedDate: Date) async throws(PurchaseRefusal) {
        guard let der = Base64URL.decodeStandard(x5c[1]), let intermediate = try? Certificate(derEncoded: der),
            let rootDER = Base64URL.decodeStandard(x5c[2]), let root = try? Certificate(derEncoded: rootDER)
        else {
            throw PurchaseRefusal(.certificateMalformed, "x5c holds a certificate that is not DER X.509")
        }
        var verifier = Verifier(rootCertificates: CertificateStore([root])) {
            RFC5280Policy(fixedExpiryValidationTime: signedDate)
            AppleChainPolicy()
        }
        let result = await verifier.validate(leaf: leaf, intermediates: CertificateStore([intermediate]))
        guard case .validCertificate(let validated) = result, Array(validated) == [leaf, intermediate, root] else {
            throw PurchaseRefusal(
                .chainInvalid,
                "the certificates do not form a valid chain leaf → intermediate → root (an issuer's signature, "
                    + "its constraints or the names do not match)")
        }
    }
}
