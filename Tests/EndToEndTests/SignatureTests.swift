import Foundation
import IAPRules
import IAPSystem
import Testing

/// Signed packages: productsign's layout made by `TestSigner` with keys from the openssl command line,
/// through the binary (its reports, text and exit statuses); the signature rules themselves are
/// judged in process (IAPKitTests' SignatureCheckTests).
@Suite("Signatures", .onTestThreads, .enabled(if: TestPKI.shared != nil, "the openssl command line is needed"))
struct SignatureTests {
    typealias Signature = SignatureReport
    typealias Signed = SignedReport

    let scratch = ScratchFolder()
    let pki: TestPKI

    init() throws { pki = try #require(TestPKI.shared) }

    @Test func signedReportsMatchTheirSchemas() throws {
        let path = try signedPackage("schema")
        try OutputSchemaTests.expectValid(
            try Harness.run([
                "iapkg", "validate", path, "--json",
                "--trust-anchor", pki.at("ca.pem"),
            ]), "validate.schema.json")
        try OutputSchemaTests.expectValid(try Harness.run(["iapkg", "inspect", path, "--json"]), "inspect.schema.json")
    }

    /// A tree package signed by `signer` (by default: the leaf key, the leaf and the CA listed, RSA and CMS).
    func signedPackage(_ name: String, edit: (inout TestSigner) -> Void = { _ in }) throws -> String {
        try pki.signedPackage(name, in: scratch, edit: edit)
    }

    func signatures(_ run: ValidateRun) throws -> [Signature] { try run.signatures() }

    @Test("a valid RSA and CMS signature verify; the chain is not judged without --trust-anchor")
    func validSignature() throws {
        let path = try signedPackage("valid")
        let run = try Validate.expectClean(path)
        let found = try signatures(run)
        #expect(found.map(\.style) == ["RSA", "CMS"])
        #expect(found.allSatisfy { $0.status == "verified" && $0.trust == "not-checked" }, "\(run.dump)")
        #expect(found.first?.certificates.first?.subject == "CN=iapkg Test Signer")
        #expect(found.first?.certificates.last?.subject == "CN=iapkg Test Root CA")
        let text = try Harness.run(["iapkg", "validate", path])
        #expect(
            text.stdout.contains("signature RSA verified, signed by CN=iapkg Test Signer; trust not checked"),
            "\(text.stdout)")
    }

    @Test("inspect shows the chain: subject, issuer, validity, SHA-256 fingerprint, in text and JSON")
    func inspectShowsChain() throws {
        let path = try signedPackage("inspect")
        let json = try Harness.run(["iapkg", "inspect", path, "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let report = try JSONDecoder().decode(Signed.self, from: json.stdoutData)
        let leaf = try #require(report.signatures?.first?.certificates.first)
        let fingerprint = try Harness.shell("openssl x509 -in '\(pki.at("leaf.pem"))' -noout -fingerprint -sha256")
        #expect(fingerprint.stdout.contains("=" + leaf.sha256), "\(fingerprint.stdout) vs \(leaf.sha256)")
        #expect(leaf.issuer == "CN=iapkg Test Root CA" && !leaf.expired)
        #expect(leaf.notBefore.hasSuffix("Z") && leaf.notAfter > leaf.notBefore)
        let text = try Harness.run(["iapkg", "inspect", path])
        #expect(text.stdout.contains("signature    RSA verified"), "\(text.stdout)")
        #expect(
            text.stdout.contains("subject  CN=iapkg Test Signer") && text.stdout.contains("sha256   " + leaf.sha256))
        #expect(text.stdout.contains("the same 2 certificates as above"), "\(text.stdout)")
    }

    @Test("an expired leaf is information only, with or without --trust-anchor")
    func expiredLeaf() throws {
        let path = try signedPackage("expired") { $0.certificates = [pki.at("expired.pem"), pki.at("ca.pem")] }
        let run = try Validate.expectClean(path, extra: ["--trust-anchor", pki.at("ca.pem")])
        let found = try signatures(run)
        #expect(
            found.allSatisfy {
                $0.status == "verified" && $0.trust == "trusted" && $0.certificates.first?.expired == true
            })
        let text = try Harness.run(["iapkg", "validate", path])
        #expect(
            text.status == 0 && text.stdout.contains("outside its validity period now (information only)"),
            "\(text.stdout)")
    }

    @Test("--trust-anchor fails an unsigned package, and a file that is no PEM certificate is a usage error")
    func trustAnchorNeedsSignature() throws {
        let unsigned = scratch.at("unsigned.pkg")
        try HostileTree.write(HostileTree.nodes(), to: unsigned)
        try Validate.expectError(unsigned, Rule.xarSignatureMissing, extra: ["--trust-anchor", pki.at("ca.pem")])
        let notPEM = try Harness.run(["iapkg", "validate", unsigned, "--trust-anchor", pki.at("leaf.csr")])
        #expect(notPEM.status == 64, "\(notPEM.stderr)")
        let missing = try Harness.run(["iapkg", "validate", unsigned, "--trust-anchor", scratch.at("none.pem")])
        #expect(missing.status == 2, "\(missing.stderr)")
    }

    @Test("a SHA-256 TOC is signed with a SHA-256 DigestInfo (as xar --sign writes it), and verifies")
    func sha256TOC() throws {
        let unsigned = scratch.at("sha256-unsigned.pkg")
        try HostileTree.write(HostileTree.nodes(), to: unsigned) {
            $0.tocDigest = .sha256
            $0.checksumCode = 3
        }
        let signed = scratch.at("sha256.pkg")
        try TestSigner(key: pki.at("leaf.key"), certificates: [pki.at("leaf.pem")], cms: true).sign(
            unsigned, to: signed, work: ScratchFolder())
        let run = try Validate.run(signed)
        #expect(try signatures(run).map(\.status) == ["verified", "verified"], "\(run.dump)")
        #expect(!run.rules.contains { $0.hasPrefix("xar-signature") }, "\(run.dump)")
    }

    @Test("a package built by iapkg build (product layout) verifies once signed")
    func builtProductPackage() throws {
        let folder = try scratch.contentFolder("content", files: ["Contents/a.txt": "a\n", "Contents/b/c.txt": "c\n"])
        let unsigned = scratch.at("built.pkg")
        let build = try Harness.run(["iapkg", "build", folder, "-o", unsigned])
        #expect(build.status == 0, "\(build.stderr)")
        let signed = scratch.at("built-signed.pkg")
        try TestSigner(key: pki.at("leaf.key"), certificates: [pki.at("leaf.pem")], cms: true).sign(
            unsigned, to: signed, work: ScratchFolder())
        let run = try Validate.expectClean(signed)
        #expect(try signatures(run).map(\.status) == ["verified", "verified"])
    }
}
