/// The signatures of the table of contents.
public struct SignatureRules: RuleGroup {
    public let xarSignatureInvalid = Rule(
        "xar-signature-invalid", .error, .container,
        "A TOC signature does not verify against the TOC digest.",
        "The package is signed, but the signature is not a signature of this TOC's digest with the certificate it names, or cannot be found in the heap: the package was changed after signing, or the signature is damaged. Sign the package again."
    )
    public let xarSignatureCertificate = Rule(
        "xar-signature-certificate", .error, .container,
        "A TOC signature's certificates are missing, unreadable or hold no RSA key.",
        "A signature lists the certificates that verify it; none, unreadable ones or one without an RSA key mean it cannot be checked. Sign the package again with a valid certificate chain."
    )
    public let xarSignatureUntrusted = Rule(
        "xar-signature-untrusted", .error, .container,
        "With --trust-anchor, a signature's chain does not lead to the anchor.",
        "--trust-anchor names the certificate every signature must chain to; this signature's certificates lead elsewhere, or are expired or unusable. Sign the package with a certificate issued under the anchor, or pass the right anchor."
    )
    public let xarSignatureMissing = Rule(
        "xar-signature-missing", .error, .container,
        "With --trust-anchor, the package is not signed.",
        "--trust-anchor requires a signature that chains to the anchor; the package carries none. Sign the package (productsign or xar --sign), or drop --trust-anchor for unsigned content.",
        tableNote: "with `--trust-anchor`"
    )
}
