import IAPKit

/// Signatures as text: the chain for `inspect`, one summary line each for `validate`.
enum SignatureText {
    /// Lines for `inspect`: each signature's status, then its certificates, leaf first.
    static func chain(_ signatures: [SignatureCheck]) -> [String] {
        var lines: [String] = []
        var previous: [SignatureCheck.Certificate]?
        for signature in signatures {
            lines.append("  " + "signature".paddedOrCut(to: 13) + headline(signature))
            if signature.certificates.isEmpty { continue }
            if signature.certificates == previous {
                lines.append("    the same \(signature.certificates.count) certificates as above")
                continue
            }
            previous = signature.certificates
            for (index, certificate) in signature.certificates.enumerated() {
                let number = "\(index + 1)".paddedOrCut(to: 3)
                lines.append("    \(number)subject  \(certificate.subject)")
                lines.append("       issuer   \(certificate.issuer)")
                lines.append(
                    "       valid    \(certificate.notBefore) to \(certificate.notAfter)\(certificate.expired ? " (outside this period now)" : "")"
                )
                lines.append("       sha256   \(certificate.sha256)")
            }
        }
        return lines
    }

    /// One line per signature for `validate`: "<path>: signature RSA verified, signed by …; trust …".
    static func summary(_ signatures: [SignatureCheck], path: String) -> [String] {
        signatures.map { signature in
            var text = "\(path): signature \(signature.style) \(signature.status == .verified ? "verified" : "invalid")"
            if let leaf = signature.certificates.first { text += ", signed by \(leaf.subject)" }
            switch signature.trust {
            case .notChecked: text += "; trust not checked (no --trust-anchor)"
            case .trusted: text += "; the chain leads to the trust anchor"
            case .untrusted:
                text += "; untrusted: \(signature.trustProblem ?? "the chain does not lead to the trust anchor")"
            }
            if signature.hasExpiredCertificate {
                text += "; a certificate is outside its validity period now (information only)"
            }
            return text
        }
    }

    private static func headline(_ signature: SignatureCheck) -> String {
        let status = signature.status == .verified ? "verified" : "INVALID: \(signature.problem ?? "does not verify")"
        return "\(signature.style) \(status)"
    }
}
