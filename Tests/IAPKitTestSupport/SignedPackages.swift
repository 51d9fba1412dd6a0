import Foundation
import IAPTestSupport

/// One signature as `validate --json` and `inspect --json` report it.
package struct SignatureReport: Decodable {
    /// One certificate of the signature's chain.
    package struct Certificate: Decodable {
        package var subject: String
        package var issuer: String
        package var notBefore: String
        package var notAfter: String
        package var sha256: String
        package var expired: Bool
    }
    package var element: String
    package var style: String
    package var status: String
    package var trust: String
    package var certificates: [Certificate]
}

/// The signatures part of one input's report.
package struct SignedReport: Decodable {
    package var signatures: [SignatureReport]?
}

extension TestPKI {
    /// A tree package `name.pkg` in `scratch`, signed by a signer `edit` changes (by default: the
    /// leaf key, the leaf and the CA listed, RSA and CMS).
    package func signedPackage(
        _ name: String, in scratch: ScratchFolder, edit: (inout TestSigner) -> Void = { _ in }
    ) throws -> String {
        let unsigned = scratch.at(name + "-unsigned.pkg")
        try HostileTree.write(HostileTree.nodes(), to: unsigned)
        var signer = TestSigner(key: at("leaf.key"), certificates: [at("leaf.pem"), at("ca.pem")], cms: true)
        edit(&signer)
        let work = ScratchFolder()
        let path = scratch.at(name + ".pkg")
        try signer.sign(unsigned, to: path, work: work)
        return path
    }
}

extension ValidateRun {
    /// The signatures the report lists for its first input.
    package func signatures() throws -> [SignatureReport] {
        struct Document: Decodable { var inputs: [SignedReport] }
        return try JSONDecoder().decode(Document.self, from: result.stdoutData).inputs.first?.signatures ?? []
    }
}
