import XarKit

/// What a package's signature check found: whether the signature verifies, its certificate chain
/// (leaf first) and whether that chain leads to a trust anchor. IAPKit's own rendering of the xar
/// reader's check, so that reports speak only IAPKit's types.
public struct SignatureCheck: Codable, Equatable, Sendable {
    /// Whether the signature bytes verify against the TOC digest with the leaf's key.
    public enum Status: String, Codable, Sendable {
        /// The signature verifies.
        case verified
        /// The signature does not verify, or its certificates or bytes are unusable.
        case invalid
    }

    /// Whether the certificate chain leads to a trust anchor.
    public enum Trust: String, Codable, Sendable {
        /// No trust anchor was given: the chain was not judged.
        case notChecked = "not-checked"
        /// The chain leads to the trust anchor.
        case trusted
        /// The chain does not lead to the trust anchor.
        case untrusted
    }

    /// One certificate of the chain, as the TOC lists it (leaf first).
    public struct Certificate: Codable, Equatable, Sendable {
        /// The subject's distinguished name.
        public var subject: String
        /// The issuer's distinguished name.
        public var issuer: String
        /// Start of the validity period, ISO 8601 UTC.
        public var notBefore: String
        /// End of the validity period, ISO 8601 UTC.
        public var notAfter: String
        /// SHA-256 of the DER bytes, hex pairs joined by colons.
        public var sha256: String
        /// True when the time of the check lies outside the validity period (information, not an error).
        public var expired: Bool
    }

    /// `signature` or `x-signature`.
    public var element: String
    /// The style as written: "RSA", "CMS".
    public var style: String
    /// Heap offset of the signature bytes, when the TOC gives it.
    public var offset: UInt64?
    /// Length of the signature bytes, when the TOC gives it.
    public var size: UInt64?
    /// Whether the signature verifies.
    public var status: Status
    /// Why the signature is invalid, when it is.
    public var problem: String?
    /// The certificates that could be read, leaf first.
    public var certificates: [Certificate]
    /// Whether the chain leads to a trust anchor.
    public var trust: Trust
    /// Why the chain is untrusted, when it is.
    public var trustProblem: String?

    /// True when any certificate of the chain is outside its validity period now.
    public var hasExpiredCertificate: Bool { certificates.contains { $0.expired } }

    /// The xar reader's check, in IAPKit's words.
    package init(_ check: XarSignatureCheck) {
        element = check.element
        style = check.style
        offset = check.offset
        size = check.size
        status = Status(rawValue: check.status.rawValue) ?? .invalid
        problem = check.problem
        certificates = check.certificates.map {
            Certificate(
                subject: $0.subject, issuer: $0.issuer, notBefore: $0.notBefore, notAfter: $0.notAfter,
                sha256: $0.sha256, expired: $0.expired)
        }
        trust = Trust(rawValue: check.trust.rawValue) ?? .notChecked
        trustProblem = check.trustProblem
    }
}
