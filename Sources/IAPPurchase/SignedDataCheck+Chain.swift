internal import IAPCrypto

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension SignedDataCheck {
    /// Parses `x5c` and checks each certificate's own properties; returns leaf, intermediate, root.
    func verifyChain(_ x5c: [String], at signedDate: Date) throws(PurchaseRefusal) -> [X509Certificate] {
        guard x5c.count == 3 else {
            throw PurchaseRefusal(
                .x5cLength, "x5c holds \(x5c.count) certificates; a StoreKit chain is leaf, intermediate and root")
        }
        var chain: [X509Certificate] = []
        for (index, text) in x5c.enumerated() {
            guard let der = Base64URL.decodeStandard(text), let certificate = try? X509Certificate(der: der) else {
                throw PurchaseRefusal(
                    .certificateMalformed, "x5c[\(index)] is not a standard-base64 DER X.509 certificate")
            }
            chain.append(certificate)
        }
        let (leaf, intermediate, root) = (chain[0], chain[1], chain[2])
        guard anchors.contains(root) else {
            throw PurchaseRefusal(
                .untrustedRoot, "the chain's root (\(Printable.clip(root.subject))) is not a trust anchor")
        }
        guard root.ellipticCurve == "secp384r1", intermediate.ellipticCurve == "secp384r1" else {
            throw PurchaseRefusal(.certificateKeyType, "the root and the intermediate must hold P-384 keys")
        }
        guard leaf.ellipticCurve == "prime256v1" else {
            throw PurchaseRefusal(.certificateKeyType, "the leaf must hold a P-256 key")
        }
        guard intermediate.signatureAlgorithm == "ecdsa-with-SHA384", leaf.signatureAlgorithm == "ecdsa-with-SHA384"
        else {
            throw PurchaseRefusal(
                .certificateSignatureAlgorithm, "the intermediate and the leaf must be signed with ECDSA SHA-384")
        }
        guard leaf.hasExtension(oid: AppleMarkers.leaf) else {
            throw PurchaseRefusal(.leafMarkerMissing, "the leaf lacks Apple's marker extension \(AppleMarkers.leaf)")
        }
        guard intermediate.hasExtension(oid: AppleMarkers.intermediate) else {
            throw PurchaseRefusal(
                .intermediateMarkerMissing,
                "the intermediate lacks Apple's marker extension \(AppleMarkers.intermediate)")
        }
        let moment = signedDate.timeIntervalSince1970
        for (name, certificate) in [("leaf", leaf), ("intermediate", intermediate), ("root", root)] {
            guard let validity = certificate.validitySeconds,
                Double(validity.lowerBound) <= moment, moment <= Double(validity.upperBound)
            else {
                throw PurchaseRefusal(
                    .certificateNotValidAtSignedDate,
                    "the \(name) certificate was not valid at the payload's signedDate")
            }
        }
        return chain
    }

    /// Builds and validates the path leaf → intermediate → anchor with OpenSSL's verifier (RFC 5280
    /// at `signedDate`: signatures, basic constraints, key usage, names, validity; Apple's markers
    /// understood where critical), and requires that it is exactly the three certificates given.
    func verifyPath(_ chain: [X509Certificate], at signedDate: Date) throws(PurchaseRefusal) {
        let path = try? CertificateChain.path(
            leaf: chain[0], intermediates: [chain[1]], anchors: [chain[2]],
            at: Int64(signedDate.timeIntervalSince1970.rounded(.down)),
            understoodCritical: [AppleMarkers.leaf, AppleMarkers.intermediate])
        guard let path, path.count == 3, zip(path, chain).allSatisfy({ $0.isSame(as: $1) }) else {
            throw PurchaseRefusal(
                .chainInvalid,
                "the certificates do not form a valid chain leaf → intermediate → root (an issuer's signature, "
                    + "its constraints or the names do not match)")
        }
    }
}
