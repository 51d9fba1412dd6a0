internal import IAPPurchase

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An App Store Server Notification V2 request body as the gate receives it from Apple:
/// `NotificationVerifier` (and the transaction inside) with the committed seeds' root as its trust
/// anchor and their app's Apple ID, so that a seed reaches every check.
enum NotificationTargets {
    /// The root of the seeds' chain (Tests/FuzzTargetsTests/Corpus/notification, made with
    /// Examples/server/make-test-transactions.py on 2026-11-28; valid 2020 to 2040), base64 DER.
    static let seedRoot =
        "MIIB2TCCAWCgAwIBAgIUaplx50MdYcb87eUhy/HThxbztJcwCgYIKoZIzj0EAwMwHDEaMBgGA1UEAwwRVGVzdCBSb290IENBIC0gRzMwHhcNMjAwMTAxMDAwMDAwWhcNNDAwMTAxMDAwMDAwWjAcMRowGAYDVQQDDBFUZXN0IFJvb3QgQ0EgLSBHMzB2MBAGByqGSM49AgEGBSuBBAAiA2IABD7wz+0w0aLrPbusOUTnrDMFnMIERF5dXdBc4jVcBPzqIhQwaJDfyR3RR4yU54K0IlTTsQQYWmaKmor8Ct0yrNyKvNppVesQfyiUNqTreHmF9K+x3mi5xt0HQKMitQ6taaNjMGEwDwYDVR0TAQH/BAUwAwEB/zAdBgNVHQ4EFgQUAydNVYdb19OBDQPG1H/JMzsxS6cwHwYDVR0jBBgwFoAUAydNVYdb19OBDQPG1H/JMzsxS6cwDgYDVR0PAQH/BAQDAgEGMAoGCCqGSM49BAMDA2cAMGQCMHMPYaV49Idu7Kk0vgbTXAU5VfTcDqGoosTJwXDEPTd7Srm0hzb7/ivgGiTJeRcMXgIwcG378XztG+cpgBPOn7OWVeGRWFPJK0th4/6O7qZ/3ZffhP0mLpL12mMY9MTI2CCE"

    /// A verifier trusting only the seeds' root, for the seeds' app (Apple ID 1234567890) in production.
    static let verifier: NotificationVerifier? = {
        guard let root = Data(base64Encoded: seedRoot), let anchors = try? TrustAnchors(der: [Array(root)]) else {
            return nil
        }
        return NotificationVerifier(
            anchors: anchors, bundleId: "com.example.game", environment: .production, appAppleId: 1_234_567_890)
    }()

    /// One input: a request body; or, when it starts with "{" but not with the body's key, the
    /// header's JSON, a newline, the payload's JSON, a newline and the signature's bytes, joined into
    /// a JWS and wrapped into a body here, so that mutations reach the JSON under the base64.
    static func verifyNotification(_ input: [UInt8]) {
        guard let verifier else { return }
        _ = try? verifier.verify(body: body(input))
    }

    /// The request body an input stands for.
    static func body(_ input: [UInt8]) -> [UInt8] {
        guard input.first == UInt8(ascii: "{"), !input.starts(with: Array(#"{"signedPayload""#.utf8)) else {
            return input
        }
        return Array(#"{"signedPayload":""#.utf8) + Array(PurchaseTargets.compactForm(input).utf8) + Array(#""}"#.utf8)
    }
}
