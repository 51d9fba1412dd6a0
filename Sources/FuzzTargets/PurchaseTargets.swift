internal import IAPPurchase

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A StoreKit 2 signed transaction as the gate receives it from an app: `TransactionVerifier` with
/// the committed seeds' root as its trust anchor, so that a seed reaches every check.
enum PurchaseTargets {
    /// The root of the seeds' chain (Tests/FuzzTargetsTests/Corpus/jws, made with
    /// Examples/server/make-test-transactions.py on 2026-11-26; valid 2020 to 2040), base64 DER.
    static let seedRoot =
        "MIIBizCCARCgAwIBAgIUHrbIiKtp6sVXpTJjRSjUv/gsWqUwCgYIKoZIzj0EAwMwHDEaMBgGA1UEAwwRVGVzdCBSb290IENBIC0gRzMwHhcNMjAwMTAxMDAwMDAwWhcNNDAwMTAxMDAwMDAwWjAcMRowGAYDVQQDDBFUZXN0IFJvb3QgQ0EgLSBHMzB2MBAGByqGSM49AgEGBSuBBAAiA2IABDvU4enGoax/mU6lnITvckTLpcZNjtNg6rosA3zDhLtrxezS8l4QmHNqTIzT/ORkM9A2TYbxoQwx40n4qf9Wh36/0Z0sDLLCaP4u/OeuTI2ovg8hGO36Xe9HBnUB3InyvaMTMBEwDwYDVR0TAQH/BAUwAwEB/zAKBggqhkjOPQQDAwNpADBmAjEA4e8iCeI5urklm7ansMAGjdczPzMYTJFKPu90nl/hgbf6QRoDuhzCvvZK0D7eBqpsAjEApgD+vlQi6mzHBWoG9bTxXJsKk6qwraOqlmBbDbPGdVHP0TZ7Roy6eCzI58Mmti1R"

    /// A verifier trusting only the seeds' root, for the seeds' app in production.
    static let verifier: TransactionVerifier? = {
        guard let root = Data(base64Encoded: seedRoot), let anchors = try? TrustAnchors(der: [Array(root)]) else {
            return nil
        }
        return TransactionVerifier(anchors: anchors, bundleId: "com.example.game", environment: .production)
    }()

    /// One input: a compact JWS; or, when it starts with "{", the header's JSON, a newline, the
    /// payload's JSON, a newline and the signature's bytes, joined into a JWS here, so that
    /// mutations reach the JSON and the certificates under the base64.
    static func verifyTransaction(_ input: [UInt8]) {
        guard let verifier else { return }
        _ = try? verifier.verifyWithoutSuspending(compactForm(input))
    }

    /// The compact JWS an input stands for.
    static func compactForm(_ input: [UInt8]) -> String {
        guard input.first == UInt8(ascii: "{") else { return String(decoding: input, as: UTF8.self) }
        let parts = input.split(separator: 0x0A, maxSplits: 2, omittingEmptySubsequences: false)
        return parts.map { Base64URL.encode($0) }.joined(separator: ".")
    }
}
