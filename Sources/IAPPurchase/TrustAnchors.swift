internal import IAPCrypto

/// The root certificates a transaction's chain must end at: Apple Root CA - G3 in production
/// (download `AppleRootCA-G3.cer` from Apple's certificate authority page and convert it with
/// `openssl x509 -inform der -in AppleRootCA-G3.cer -out AppleRootCA-G3.pem`), a generated root in tests.
public struct TrustAnchors: Sendable {
    /// The anchors, parsed by libcrypto.
    let certificates: [X509Certificate]

    /// Anchors from DER certificates (`.cer` files as Apple publishes them); at least one.
    public init(der certificates: [[UInt8]]) throws(TrustAnchorError) {
        var parsed: [X509Certificate] = []
        for bytes in certificates {
            do {
                parsed.append(try X509Certificate(der: bytes))
            } catch {
                throw TrustAnchorError("a certificate is not a DER X.509 certificate: \(error)")
            }
        }
        try self.init(parsed)
    }

    /// Anchors from the text of PEM files, each holding one or more `CERTIFICATE` blocks.
    public init(pem texts: [String]) throws(TrustAnchorError) {
        var parsed: [X509Certificate] = []
        for text in texts {
            do {
                parsed += try X509Certificate.certificates(pem: Array(text.utf8))
            } catch {
                throw TrustAnchorError("a file holds no PEM certificate that can be read: \(error)")
            }
        }
        try self.init(parsed)
    }

    private init(_ certificates: [X509Certificate]) throws(TrustAnchorError) {
        guard !certificates.isEmpty else { throw TrustAnchorError("no trust anchor given") }
        self.certificates = certificates
    }

    /// The anchors' DER bytes, in the order given.
    public var der: [[UInt8]] { certificates.map(\.der) }

    /// True when `certificate` is one of the anchors, byte for byte.
    func contains(_ certificate: X509Certificate) -> Bool {
        certificates.contains { $0.isSame(as: certificate) }
    }
}

/// A trust anchor that could not be used: empty, not PEM, not a certificate.
public struct TrustAnchorError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What was wrong.
    public let description: String

    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
