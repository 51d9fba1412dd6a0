import SwiftASN1
import X509

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The root certificates a transaction's chain must end at: Apple Root CA - G3 in production
/// (download `AppleRootCA-G3.cer` from Apple's certificate authority page and convert it with
/// `openssl x509 -inform der -in AppleRootCA-G3.cer -out AppleRootCA-G3.pem`), a generated root in tests.
public struct TrustAnchors: Sendable {
    /// The anchors.
    public let certificates: [Certificate]

    /// Anchors from certificates already parsed; at least one.
    public init(_ certificates: [Certificate]) throws(TrustAnchorError) {
        guard !certificates.isEmpty else { throw TrustAnchorError("no trust anchor given") }
        self.certificates = certificates
    }

    /// Anchors from the text of PEM files, each holding one or more `CERTIFICATE` blocks.
    public init(pem texts: [String]) throws(TrustAnchorError) {
        var certificates: [Certificate] = []
        for text in texts {
            let documents: [PEMDocument]
            do {
                documents = try PEMDocument.parseMultiple(pemString: text)
            } catch {
                throw TrustAnchorError("a file holds no PEM certificate")
            }
            let blocks = documents.filter { $0.discriminator == "CERTIFICATE" }
            guard !blocks.isEmpty else { throw TrustAnchorError("a file holds no PEM certificate") }
            for document in blocks {
                do {
                    certificates.append(try Certificate(pemDocument: document))
                } catch {
                    throw TrustAnchorError("a PEM certificate block is not a DER X.509 certificate: \(error)")
                }
            }
        }
        try self.init(certificates)
    }

    /// True when `certificate` is one of the anchors, byte for byte.
    func contains(_ certificate: Certificate) -> Bool {
        certificates.contains(certificate)
    }
}

/// A trust anchor that could not be used: empty, not PEM, not a certificate.
public struct TrustAnchorError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What was wrong.
    public let description: String

    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
