/// Why a token does not open a file: a ``Refusal`` with one of ``TokenRefusalReason``'s codes.
public typealias TokenRefusal = Refusal<TokenRefusalReason>

/// The stable reason codes of a ``TokenRefusal``.
public enum TokenRefusalReason: String, RefusalReason {
    /// No token was sent.
    case missing = "token-missing"
    /// The token is not two base64url parts, or its claims are not readable.
    case malformed = "token-malformed"
    /// The signature does not verify: altered, or signed with another (rotated) key.
    case signature = "token-signature"
    /// The token's time is over.
    case expired = "token-expired"
    /// The token opens another product.
    case otherProduct = "token-other-product"
    /// The token names no purchase (issued before 2026-11-28), and the server checks revocations.
    case unbound = "token-unbound"
}
