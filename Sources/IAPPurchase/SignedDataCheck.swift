internal import IAPCrypto

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What every JWS the App Store signs passes, transactions and notifications alike, as Apple's App
/// Store Server Library checks it with online checks off: ES256 and no critical header, the `x5c`
/// chain (leaf, intermediate, root) ending at a trust anchor, carrying Apple's marker extensions
/// and valid at the payload's own `signedDate`, and the signature verifying with the leaf's key.
struct SignedDataCheck: Sendable {
    /// The roots a chain may end at.
    let anchors: TrustAnchors

    /// The payload of `text` once its signature and chain are checked: `decode` reads the payload
    /// (refusing what is not well formed), `signedDate` says the moment the chain is judged at.
    /// - Throws: ``PurchaseRefusal`` naming the first check that failed.
    func verify<Payload>(
        _ text: String, maxLength: Int, naming what: String,
        decode: ([UInt8]) throws(PurchaseRefusal) -> Payload, signedDate: (Payload) -> Date
    ) throws(PurchaseRefusal) -> Payload {
        let parsed = try CompactJWS(text, maxLength: maxLength, naming: what)
        guard parsed.header.alg == "ES256" else {
            throw PurchaseRefusal(
                .jwsAlgorithm, "the header's alg is '\(Printable.clip(parsed.header.alg))', not ES256")
        }
        guard parsed.header.crit == nil else {
            throw PurchaseRefusal(.jwsCritical, "the header names critical extensions (crit), which are not understood")
        }
        let payload = try decode(parsed.payload)
        let moment = signedDate(payload)
        let chain = try verifyChain(parsed.header.x5c, at: moment)
        try verifyPath(chain, at: moment)
        try verifySignature(parsed, leaf: chain[0])
        return payload
    }

    /// The ES256 signature (JOSE r‖s, 64 bytes) over the signing input, with the leaf's P-256 key.
    private func verifySignature(_ jws: CompactJWS, leaf: X509Certificate) throws(PurchaseRefusal) {
        let verified = try? SignatureVerification.verifyES256(
            signature: jws.signature, message: jws.signingInput, certificate: leaf)
        guard verified == true else {
            throw PurchaseRefusal(.signatureInvalid, "the signature does not verify with the leaf certificate's key")
        }
    }
}
