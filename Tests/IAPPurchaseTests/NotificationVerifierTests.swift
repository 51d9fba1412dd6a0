import Foundation
import IAPPurchaseTestSupport
import Testing

@testable import IAPPurchase

/// The notification verifier against notifications made with the test chain: each type Apple
/// sends is taken with what it does, and each way a notification can be wrong is refused with its
/// own reason code.
@Suite struct NotificationVerifierTests {
    /// A verifier for com.example.game in Production trusting `pki`'s root.
    func verifier(_ pki: TestPKI, appAppleId: Int64? = TestPKI.appAppleId) throws -> NotificationVerifier {
        NotificationVerifier(
            anchors: try pki.anchors, bundleId: "com.example.game", environment: .production, appAppleId: appAppleId)
    }

    /// The reason `body` is refused for, or nil if it is accepted.
    func refusal(_ body: [UInt8], by verifier: NotificationVerifier) -> PurchaseRefusal.Reason? {
        do {
            _ = try verifier.verify(body: body)
            return nil
        } catch {
            return error.reason
        }
    }

    @Test func eachTypeDoesWhatItSays() throws {
        let pki = try TestPKI()
        let verifier = try verifier(pki)
        let expected: [(String, RevocationEvent.Effect?)] = [
            ("REFUND", .revoke), ("REVOKE", .revoke), ("REFUND_REVERSED", .lift), ("TEST", nil),
            ("CONSUMPTION_REQUEST", nil), ("REFUND_DECLINED", nil), ("SOMETHING_APPLE_ADDS_LATER", nil),
        ]
        for (type, effect) in expected {
            let notification = try verifier.verify(body: try pki.notificationBody(type: type, uuid: "uuid-\(type)"))
            #expect(notification.notificationType == type)
            #expect(notification.notificationUUID == "uuid-\(type)")
            #expect(notification.signedDate == TestPKI.signedDate)
            #expect(notification.appAppleId == TestPKI.appAppleId)
            #expect((notification.transaction == nil) == (type == "TEST"), "\(type)")
            let event = notification.revocationEvent
            #expect(event?.effect == effect, "\(type)")
            if let event {
                #expect(event.originalTransactionId == "2000000123456789")
                #expect(event.source == type && event.notificationUUID == "uuid-\(type)")
            }
        }
        // A refund's transaction carries its revocation date and is still taken.
        let refund = try verifier.verify(body: try pki.notificationBody(type: "REFUND"))
        #expect(refund.transaction?.revocationDate != nil)
    }

    @Test func aRestoreIsRevokedUnderItsOriginalPurchase() throws {
        let pki = try TestPKI()
        let transaction = try pki.notifiedTransaction(
            type: "REFUND", originalTransactionId: "2000000000000001", transactionId: "2000000000000777")
        let body = try TestPKI.body(
            signedPayload: try pki.jws(payload: TestPKI.notificationPayload(type: "REFUND", transaction: transaction)))
        let event = try #require(try verifier(pki).verify(body: body).revocationEvent)
        #expect(event.originalTransactionId == "2000000000000001" && event.effect == .revoke)
    }

    @Test func wrongNotificationsAreRefused() throws {
        let pki = try TestPKI()
        let stranger = try TestPKI(rootName: "Stranger Root")
        let verifier = try verifier(pki)
        let refund = try pki.notifiedTransaction(type: "REFUND")
        func signed(_ edit: @escaping (inout [String: Any]) -> Void, by signer: TestPKI? = nil) throws -> [UInt8] {
            let payload = TestPKI.notificationPayload(type: "REFUND", transaction: refund, edit: edit)
            return try TestPKI.body(signedPayload: try (signer ?? pki).jws(payload: payload))
        }
        func inData(_ key: String, _ value: Any?) -> (inout [String: Any]) -> Void {
            { fields in
                var data = fields["data"] as? [String: Any] ?? [:]
                data[key] = value
                fields["data"] = data
            }
        }
        let strangerTransaction = try stranger.notifiedTransaction(type: "REFUND")
        let otherAppTransaction = try pki.jws(
            payload: TestPKI.payload {
                $0["bundleId"] = "com.example.other"
                $0["revocationDate"] = Int64(1_795_564_700_000)
            })
        let tampered = try pki.notificationBody(type: "REFUND").map { $0 }
        var flipped = String(decoding: tampered, as: UTF8.self)
        flipped = flipped.replacingOccurrences(of: "\"}", with: "A\"}")
        let cases: [(PurchaseRefusal.Reason, [UInt8], String)] = [
            (.requestMalformed, Array("not json".utf8), "not JSON"),
            (.requestMalformed, Array(#"{"signedPayload": 5}"#.utf8), "payload not a string"),
            (.requestMalformed, Array(#"{"notificationType": "REFUND"}"#.utf8), "a V1 notification"),
            (.jwsTooLarge, Array(repeating: 0x20, count: NotificationVerifier.maxBodyLength + 1), "too large"),
            (.jwsMalformed, try TestPKI.body(signedPayload: "a.b"), "two parts"),
            (.untrustedRoot, try signed({ _ in }, by: stranger), "another root"),
            (.signatureInvalid, Array(flipped.utf8), "signature altered"),
            (.bundleMismatch, try signed(inData("bundleId", "com.example.other")), "another app"),
            (.bundleMismatch, try signed({ $0.removeValue(forKey: "data") }), "no app at all"),
            (.appAppleIdMismatch, try signed(inData("appAppleId", 42)), "another App Store app"),
            (.environmentMismatch, try signed(inData("environment", "Sandbox")), "sandbox"),
            (.untrustedRoot, try signed(inData("signedTransactionInfo", strangerTransaction)), "inner: another root"),
            (.bundleMismatch, try signed(inData("signedTransactionInfo", otherAppTransaction)), "inner: another app"),
            (.jwsMalformed, try signed(inData("signedTransactionInfo", "x.y")), "inner: malformed"),
            (.jwsPayload, try signed({ $0["notificationUUID"] = "a b\n" }), "UUID with spaces"),
            (.jwsPayload, try signed({ $0["signedDate"] = "soon" }), "signedDate a string"),
            (.jwsPayload, try signed({ $0.removeValue(forKey: "notificationType") }), "no type"),
        ]
        for (reason, body, label) in cases {
            #expect(refusal(body, by: verifier) == reason, "\(label)")
        }
        // A refund without a transaction verifies (as in Apple's library) and does nothing.
        let bare = try verifier.verify(body: try signed(inData("signedTransactionInfo", nil)))
        #expect(bare.transaction == nil && bare.revocationEvent == nil)
        // Without a configured appAppleId, another one is not checked.
        #expect(refusal(try signed(inData("appAppleId", 42)), by: try self.verifier(pki, appAppleId: nil)) == nil)
    }

    @Test func refusalsNameTheInnerTransaction() throws {
        let pki = try TestPKI()
        let stranger = try TestPKI(rootName: "Stranger Root")
        let payload = TestPKI.notificationPayload(
            type: "REFUND", transaction: try stranger.notifiedTransaction(type: "REFUND"))
        let verifier = try verifier(pki)
        let signedPayload = try pki.jws(payload: payload)
        do {
            _ = try verifier.verify(signedPayload: signedPayload)
            Issue.record("a transaction under another root was taken")
        } catch {
            #expect(error.reason == .untrustedRoot)
            #expect(error.message.hasPrefix("data.signedTransactionInfo: "))
        }
    }
}
