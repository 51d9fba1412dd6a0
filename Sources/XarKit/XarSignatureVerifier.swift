import IAPCrypto
import IAPRules
import IAPSystem
import XMLKit

/// Verifies the TOC's signatures against the digest of the compressed TOC, as xar and productsign
/// write them: `RSA` is PKCS#1 v1.5 over the DigestInfo of the TOC checksum's algorithm wrapping the
/// digest itself (not hashed again); `CMS` is a detached SignedData over the same digest bytes.
enum XarSignatureVerifier {
    /// Largest signature read (real ones are 256 bytes to ~10 KiB).
    static let maxSignatureBytes = XarLimits.signatureBytes
    /// Most certificates read per signature.
    static let maxCertificates = 16

    /// Where the signature bytes are read from.
    struct Heap {
        var descriptor: FileDescriptor
        var heapOffset: UInt64
        var fileSize: UInt64
    }

    /// Checks every signature; the findings are errors.
    static func verify(
        _ signatures: [XarSignature], digest: [UInt8]?, algorithm: DigestAlgorithm?,
        heap: Heap
    ) -> (checks: [XarSignatureCheck], findings: [Finding]) {
        var checks: [XarSignatureCheck] = []
        var findings: [Finding] = []
        for signature in signatures {
            let (check, finding) = verify(signature, digest: digest, algorithm: algorithm, heap: heap)
            checks.append(check)
            if let finding { findings.append(finding) }
        }
        return (checks, findings)
    }

    private static func verify(
        _ signature: XarSignature, digest: [UInt8]?, algorithm: DigestAlgorithm?,
        heap: Heap
    ) -> (XarSignatureCheck, Finding?) {
        let label = signature.label
        var check = XarSignatureCheck(
            element: signature.element, style: signature.style, offset: signature.offset,
            size: signature.size, status: .invalid, problem: nil, certificates: [], certificateDER: [])
        var start: UInt64?
        if let offset = signature.offset {
            let (sum, overflow) = heap.heapOffset.addingReportingOverflow(offset)
            start = overflow ? nil : sum
        }
        func fail(_ rule: Rule, _ problem: String, _ advice: String) -> (XarSignatureCheck, Finding?) {
            check.problem = problem
            return (
                check,
                rule.finding(nil, offset: start, "the \(label) (TOC line \(signature.line)) \(problem); \(advice)")
            )
        }
        let resign = "re-sign the package (productsign) or fetch it again from its source"

        // The certificates, leaf first.
        guard !signature.certificateTexts.isEmpty else {
            return fail(Rule.xarSignatureCertificate, "lists no <X509Certificate>, so it cannot be verified", resign)
        }
        guard signature.certificateTexts.count <= maxCertificates else {
            return fail(
                Rule.xarSignatureCertificate,
                "lists \(signature.certificateTexts.count) certificates, more than the \(maxCertificates) read", resign)
        }
        var certificates: [X509Certificate] = []
        for (index, text) in signature.certificateTexts.enumerated() {
            let which = index == 0 ? "certificate 1 (the signer's)" : "certificate \(index + 1)"
            guard let der = Base64.decode(text), !der.isEmpty else {
                return fail(Rule.xarSignatureCertificate, "has a \(which) that is not base64 text", resign)
            }
            do {
                let certificate = try X509Certificate(der: der)
                certificates.append(certificate)
                check.certificates.append(.init(certificate))
                check.certificateDER.append(der)
            } catch {
                return fail(
                    Rule.xarSignatureCertificate, "has a \(which) that cannot be read: \(error.message)", resign)
            }
        }
        guard let leaf = certificates.first else {
            return fail(Rule.xarSignatureCertificate, "lists no certificate", resign)
        }

        // The signature bytes.
        guard let offset = signature.offset, let size = signature.size, let start else {
            return fail(
                Rule.xarSignatureInvalid, "lacks a valid <offset> or <size>, so its bytes cannot be found", resign)
        }
        guard size > 0, size <= maxSignatureBytes else {
            return fail(
                Rule.xarSignatureInvalid, "declares \(size) signature bytes (at most \(maxSignatureBytes) are read)",
                resign)
        }
        guard start <= heap.fileSize, size <= heap.fileSize - start else {
            // HeapChecker reports the range itself (xar-data-range): no second finding.
            check.problem = "its bytes (heap offset \(offset), \(size) bytes) lie outside the file"
            return (check, nil)
        }
        let bytes: [UInt8]
        do {
            bytes = try heap.descriptor.read(count: Int(size), at: start)
        } catch {
            return fail(Rule.xarSignatureInvalid, "cannot be read: \(error)", "check the file and the disk")
        }
        guard let digest, let algorithm else {
            return fail(
                Rule.xarSignatureInvalid, "cannot be verified: the TOC has no digest to check it against",
                "a signed TOC needs a SHA-1 (or better) TOC checksum; re-sign the package")
        }

        switch signature.style.uppercased() {
        case "RSA":
            do {
                guard
                    try SignatureVerification.verifyRSA(
                        signature: bytes, digest: digest, algorithm: algorithm, certificate: leaf)
                else {
                    return fail(
                        Rule.xarSignatureInvalid,
                        "does not verify against the TOC's \(algorithm.rawValue) digest with the key of \(leaf.subject): the TOC or the signature was changed after signing, or the certificate is not the signer's",
                        resign)
                }
            } catch {
                return fail(
                    Rule.xarSignatureCertificate, "cannot be checked with certificate 1: \(error.message)", resign)
            }
        case "CMS":
            do {
                let signers = try SignatureVerification.verifyCMS(bytes, content: digest, extra: certificates)
                guard signers.contains(where: { $0.isSame(as: leaf) }) else {
                    return fail(
                        Rule.xarSignatureInvalid,
                        "is signed by \(signers.first?.subject ?? "an unknown certificate"), not by the certificate the TOC lists first (\(leaf.subject))",
                        resign)
                }
            } catch {
                return fail(
                    Rule.xarSignatureInvalid,
                    "does not verify against the TOC's \(algorithm.rawValue) digest: \(error.message)", resign)
            }
        default:
            return fail(
                Rule.xarSignatureInvalid, "has an unknown style, so it cannot be verified (RSA and CMS are known)",
                resign)
        }
        check.status = .verified
        return (check, nil)
    }
}

extension XarSignatureCheck {
    /// Judges whether the chain (the TOC's certificates, leaf first) leads to one of `anchors`, the
    /// only trusted certificates; validity periods are not judged (an expired chain stays information).
    /// Returns an error finding when it does not.
    package mutating func judgeTrust(anchors: [X509Certificate]) -> Finding? {
        let label = "<\(element) style=\"\(style)\">"
        do {
            let chain = try certificateDER.map { der throws(CryptoError) in try X509Certificate(der: der) }
            guard let leaf = chain.first else {
                trust = .untrusted
                trustProblem = "its certificates cannot be read"
                return Rule.xarSignatureUntrusted.finding(
                    nil,
                    "the \(label) has no readable certificate, so it cannot lead to the trust anchor; sign the package with a certificate issued under the anchor"
                )
            }
            if let problem = try CertificateChain.problem(
                leaf: leaf, intermediates: Array(chain.dropFirst()), anchors: anchors)
            {
                trust = .untrusted
                trustProblem = problem
                return Rule.xarSignatureUntrusted.finding(
                    nil,
                    "the \(label) chain from \(leaf.subject) does not lead to the trust anchor (\(problem)); sign the package with a certificate issued under the anchor, or give the right --trust-anchor"
                )
            }
            trust = .trusted
            return nil
        } catch {
            trust = .untrusted
            trustProblem = error.message
            return Rule.xarSignatureUntrusted.finding(nil, "the \(label) chain cannot be judged: \(error.message)")
        }
    }
}
