import IAPCrypto

/// What checking one TOC signature found: whether it verifies, who signed, and (when asked) trust.
package struct XarSignatureCheck: Codable, Equatable, Sendable {
    /// Whether the signature bytes verify against the TOC digest with the leaf's key.
    package enum Status: String, Codable, Sendable {
        /// The signature verifies.
        case verified
        /// The signature does not verify, or its certificates or bytes are unusable.
        case invalid
    }

    /// Whether the certificate chain leads to a trust anchor.
    package enum Trust: String, Codable, Sendable {
        /// No trust anchor was given: the chain was not judged.
        case notChecked = "not-checked"
        /// The chain leads to the trust anchor.
        case trusted
        /// The chain does not lead to the trust anchor.
        case untrusted
    }

    /// One certificate of the chain, as the TOC lists it (leaf first).
    package struct Certificate: Codable, Equatable, Sendable {
        package var subject: String
        package var issuer: String
        /// Start of the validity period, ISO 8601 UTC.
        package var notBefore: String
        /// End of the validity period, ISO 8601 UTC.
        package var notAfter: String
        /// SHA-256 of the DER bytes, hex pairs joined by colons.
        package var sha256: String
        /// True when the time of the check lies outside the validity period (information, not an error).
        package var expired: Bool

        /// The summary of a parsed certificate.
        package init(_ certificate: X509Certificate) {
            subject = certificate.subject
            issuer = certificate.issuer
            notBefore = certificate.notBefore
            notAfter = certificate.notAfter
            sha256 = certificate.sha256Fingerprint
            expired = certificate.isOutsideValidity
        }
    }

    /// `signature` or `x-signature`.
    package var element: String
    /// The style as written: "RSA", "CMS".
    package var style: String
    /// Heap offset of the signature bytes, when the TOC gives it.
    package var offset: UInt64?
    /// Length of the signature bytes, when the TOC gives it.
    package var size: UInt64?
    package var status: Status
    /// Why the signature is invalid, when it is.
    package var problem: String?
    /// The certificates that could be read, leaf first.
    package var certificates: [Certificate]
    package var trust: Trust = .notChecked
    /// Why the chain is untrusted, when it is.
    package var trustProblem: String?
    /// The DER certificates as the TOC lists them (for the trust check; not rendered).
    package var certificateDER: [[UInt8]] = []

    enum CodingKeys: String, CodingKey {
        case element, style, offset, size, status, problem, certificates, trust, trustProblem
    }

    /// A check result.
    package init(
        element: String, style: String, offset: UInt64?, size: UInt64?, status: Status, problem: String?,
        certificates: [Certificate], certificateDER: [[UInt8]]
    ) {
        self.element = element
        self.style = style
        self.offset = offset
        self.size = size
        self.status = status
        self.problem = problem
        self.certificates = certificates
        self.certificateDER = certificateDER
    }

    /// True when any certificate of the chain is outside its validity period now.
    package var hasExpiredCertificate: Bool { certificates.contains { $0.expired } }
}
