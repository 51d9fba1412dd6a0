import IAPCrypto
import IAPRules
import XarKit

/// The `--trust-anchor` check: every signature's chain must lead to one of the anchors.
enum SignatureTrust {
    /// Judges each signature against `anchors` (nothing when none are given); the findings are errors.
    /// A package without any signature fails too: a trust anchor asks for a signed package.
    static func judge(_ signatures: inout [XarSignatureCheck], anchors: [X509Certificate]) -> [Finding] {
        guard !anchors.isEmpty else { return [] }
        guard !signatures.isEmpty else {
            return [
                Rule.xarSignatureMissing.finding(
                    nil,
                    "the package is not signed, but a trust anchor was given; sign it (productsign) with a certificate issued under the anchor, or drop --trust-anchor"
                )
            ]
        }
        var findings: [Finding] = []
        for index in signatures.indices {
            if let finding = signatures[index].judgeTrust(anchors: anchors) { findings.append(finding) }
        }
        return findings
    }
}
