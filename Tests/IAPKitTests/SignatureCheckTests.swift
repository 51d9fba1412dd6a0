import Foundation
import IAPKitTestSupport
import IAPRules
import IAPTestSupport
import Testing

/// The signature rules on packages signed in productsign's layout by `TestSigner` (keys from the
/// openssl command line), judged in process by the validator the CLI calls.
@Suite("Signature checks", .onTestThreads, .enabled(if: TestPKI.shared != nil, "the openssl command line is needed"))
struct SignatureCheckTests {
    typealias Signature = SignatureReport

    let scratch = ScratchFolder()
    let pki: TestPKI

    init() throws { pki = try #require(TestPKI.shared) }

    /// A tree package signed by `signer` (by default: the leaf key, the leaf and the CA listed, RSA and CMS).
    func signedPackage(_ name: String, edit: (inout TestSigner) -> Void = { _ in }) throws -> String {
        try pki.signedPackage(name, in: scratch, edit: edit)
    }

    func signatures(_ run: ValidateRun) throws -> [Signature] { try run.signatures() }

    @Test("one flipped bit in the RSA signature is an error")
    func flippedRSABit() throws {
        let path = try signedPackage("flipped") {
            $0.editSignature = {
                var bytes = $0
                bytes[100] ^= 0x01
                return bytes
            }
        }
        let run = try Validate.expectError(path, Rule.xarSignatureInvalid)
        #expect(try signatures(run).map(\.status) == ["invalid", "verified"])
    }

    @Test("a CMS signature over other bytes than the TOC digest is an error")
    func cmsOverOtherBytes() throws {
        let path = try signedPackage("cms-other") {
            $0.editCMSContent = {
                var bytes = $0
                bytes[0] ^= 0x80
                return bytes
            }
        }
        let run = try Validate.expectError(path, Rule.xarSignatureInvalid)
        #expect(try signatures(run).map(\.status) == ["verified", "invalid"])
    }

    @Test("a certificate of another key is an error")
    func wrongKey() throws {
        let path = try signedPackage("wrong-key") {
            $0.certificates = [pki.at("other-ca.pem")]
            $0.cms = false
        }
        try Validate.expectError(path, Rule.xarSignatureInvalid)
    }

    @Test("a signature without certificates is an error")
    func missingCertificate() throws {
        let path = try signedPackage("no-certificate") {
            $0.certificates = []
            $0.cms = false
        }
        try Validate.expectError(path, Rule.xarSignatureCertificate)
    }

    @Test("--trust-anchor with the issuing CA passes; with another CA it is an error")
    func trustAnchor() throws {
        let path = try signedPackage("anchored")
        let trusted = try Validate.expectClean(path, extra: ["--trust-anchor", pki.at("ca.pem")])
        #expect(try signatures(trusted).allSatisfy { $0.trust == "trusted" })
        let other = try Validate.expectError(
            path, Rule.xarSignatureUntrusted, extra: ["--trust-anchor", pki.at("other-ca.pem")])
        #expect(try signatures(other).allSatisfy { $0.trust == "untrusted" && $0.status == "verified" })
    }
}
