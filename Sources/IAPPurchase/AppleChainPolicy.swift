import SwiftASN1
import X509

/// Apple's marker extensions on a StoreKit signing chain, and the chain's exact shape (leaf,
/// intermediate, root), enforced inside swift-certificates' chain building.
struct AppleChainPolicy: VerifierPolicy {
    /// The leaf's marker: a certificate for signing App Store receipts and transactions.
    static let leafMarker: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 11, 1]
    /// The intermediate's marker: Apple Worldwide Developer Relations.
    static let intermediateMarker: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 2, 1]

    /// The markers are understood here, so they may be critical.
    let verifyingCriticalExtensions: [ASN1ObjectIdentifier] = [leafMarker, intermediateMarker]

    /// The chain must be exactly leaf, intermediate, root, the first two carrying their markers.
    func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) async -> PolicyEvaluationResult {
        let certificates = Array(chain)
        guard certificates.count == 3 else {
            return .failsToMeetPolicy(
                reason: "the chain is \(certificates.count) certificates, not leaf, intermediate, root")
        }
        guard certificates[0].extensions[oid: Self.leafMarker] != nil else {
            return .failsToMeetPolicy(reason: "the leaf lacks Apple's marker extension")
        }
        guard certificates[1].extensions[oid: Self.intermediateMarker] != nil else {
            return .failsToMeetPolicy(reason: "the intermediate lacks Apple's marker extension")
        }
        return .meetsPolicy
    }
}
