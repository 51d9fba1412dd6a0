/// Why a signed transaction earns no download, or a notification is not taken: a ``Refusal`` with
/// one of ``PurchaseRefusalReason``'s codes.
public typealias PurchaseRefusal = Refusal<PurchaseRefusalReason>

/// The stable reason codes of a ``PurchaseRefusal``, one per refusal.
public enum PurchaseRefusalReason: String, RefusalReason {
    /// The JWS is longer than ``TransactionVerifier/maxJWSLength``.
    case jwsTooLarge = "jws-too-large"
    /// The JWS is not three non-empty base64url parts joined by dots.
    case jwsMalformed = "jws-malformed"
    /// A part is not canonical unpadded base64url.
    case jwsBase64 = "jws-base64"
    /// The header is not a JSON object with `alg` and `x5c`.
    case jwsHeader = "jws-header"
    /// The header's `alg` is not ES256.
    case jwsAlgorithm = "jws-alg"
    /// The header names critical extensions (`crit`) that are not understood.
    case jwsCritical = "jws-crit"
    /// The payload is not a JSON object with the transaction's fields and types.
    case jwsPayload = "jws-payload"
    /// `x5c` does not hold exactly leaf, intermediate and root.
    case x5cLength = "x5c-length"
    /// A certificate in `x5c` is not standard base64, or not a DER X.509 certificate.
    case certificateMalformed = "certificate-malformed"
    /// The chain's root is not one of the configured trust anchors.
    case untrustedRoot = "untrusted-root"
    /// A certificate's key is not the expected curve (root and intermediate P-384, leaf P-256).
    case certificateKeyType = "certificate-key-type"
    /// The intermediate or the leaf is not signed with ECDSA SHA-384.
    case certificateSignatureAlgorithm = "certificate-signature-algorithm"
    /// The leaf lacks Apple's marker extension 1.2.840.113635.100.6.11.1.
    case leafMarkerMissing = "leaf-marker-missing"
    /// The intermediate lacks Apple's marker extension 1.2.840.113635.100.6.2.1.
    case intermediateMarkerMissing = "intermediate-marker-missing"
    /// A certificate of the chain was not valid at the transaction's `signedDate`.
    case certificateNotValidAtSignedDate = "certificate-not-valid-at-signed-date"
    /// The certificates do not form a valid chain (an issuer's signature, constraints, names).
    case chainInvalid = "chain-invalid"
    /// The JWS signature does not verify with the leaf's key.
    case signatureInvalid = "signature-invalid"
    /// `bundleId` is not the configured app.
    case bundleMismatch = "bundle-mismatch"
    /// `environment` is not the configured one.
    case environmentMismatch = "environment-mismatch"
    /// A notification's `appAppleId` is not the configured one.
    case appAppleIdMismatch = "app-apple-id-mismatch"
    /// A notification's request body is not `{"signedPayload": "<JWS>"}`.
    case requestMalformed = "request-malformed"
    /// The purchase was refunded or revoked: its `revocationDate` is present, or a notification
    /// (`REFUND`, `REVOKE`) or an operator revoked its original transaction since.
    case revoked = "revoked"
    /// `type` is not Non-Consumable.
    case notNonConsumable = "not-non-consumable"
    /// `productId` is not a valid product identifier.
    case productInvalid = "product-invalid"
    /// `productId` names no product published here.
    case productUnknown = "product-unknown"
}
