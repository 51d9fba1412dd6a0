import Foundation
import IAPPurchase
import IAPPurchaseTestSupport
import IAPRevocationState
import Testing

@testable import IAPGate

/// Notifications through the gate's decisions, with the real SQLite state: a refund closes the door
/// on the purchase's transactions and tokens, a reversal opens it, in whatever order they come;
/// what verifies is answered 200 only once kept, what does not is answered 4xx.
@Suite struct GateNotificationTests {
    let product = "com.example.game.levels.pack1"
    let buyer = "2000000123456789"

    /// A gate over a one-product store trusting `pki`, its state in `folder`/state (nil: none).
    func gate(_ folder: String, _ pki: TestPKI, state: Bool = true) throws -> Gate {
        let plain = try GateTests().gate(folder + "/srv", anchors: try pki.anchors)
        return Gate(
            verifier: plain.verifier, tokens: plain.tokens, products: plain.products, tokenTTL: 600, uriPrefix: "/",
            notifications: NotificationVerifier(
                anchors: try pki.anchors, bundleId: "com.example.game", environment: .production,
                appAppleId: TestPKI.appAppleId),
            revocations: state ? try SQLiteRevocationStore(folder: folder + "/state") : nil)
    }

    /// The token `gate` gives for a purchase (transaction `transactionId`) of the buyer's original one, or the refusal's code.
    func authorize(_ gate: Gate, _ pki: TestPKI, transactionId: String? = nil) async throws -> (String?, String) {
        let jws = try pki.jws(
            payload: TestPKI.payload {
                $0["originalTransactionId"] = buyer
                $0["transactionId"] = transactionId ?? buyer
            })
        let answer = await gate.authorize(
            body: Array(try JSONSerialization.data(withJSONObject: ["signedTransaction": jws])))
        let json = try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any]
        return (json?["token"] as? String, answer.code)
    }

    /// `(status, code)` of a check of the product's manifest with `token`.
    func check(_ gate: Gate, _ token: String) -> (Int, String) {
        let answer = gate.check(originalURI: "/\(product)/1.0/manifest.json", authorization: ["Bearer \(token)"])
        return (answer.status, answer.code)
    }

    /// `(status, code)` of a notification of `type` signed `seconds` from now.
    func notify(_ gate: Gate, _ pki: TestPKI, _ type: String, at seconds: Double, uuid: String = UUID().uuidString)
        throws -> (Int, String)
    {
        let body = try pki.notificationBody(
            type: type, originalTransactionId: buyer, uuid: uuid, signedDate: Date(timeIntervalSinceNow: seconds))
        let answer = gate.notify(body: body)
        return (answer.status, answer.code)
    }

    func scratch() throws -> String { try GateTests().scratch() }

    @Test func aRefundClosesTheDoorAndItsReversalOpensIt() async throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let pki = try TestPKI()
        let gate = try gate(folder, pki)
        let (open, _) = try await authorize(gate, pki)
        let token = try #require(open)
        #expect(check(gate, token) == (204, "ok"))
        #expect(try notify(gate, pki, "REFUND", at: -60, uuid: "refund-1") == (200, "revoke-applied"))
        #expect(check(gate, token) == (403, "revoked"))
        #expect(try await authorize(gate, pki).1 == "revoked")
        // A restore: a new transactionId, the same original purchase.
        #expect(try await authorize(gate, pki, transactionId: "2000000999999999").1 == "revoked")
        // Apple's retry of the same refund changes nothing.
        #expect(try notify(gate, pki, "REFUND", at: -60, uuid: "refund-1") == (200, "revoke-duplicate"))
        #expect(try notify(gate, pki, "REFUND_REVERSED", at: -30) == (200, "lift-applied"))
        let (again, code) = try await authorize(gate, pki)
        #expect(code == "ok")
        #expect(check(gate, try #require(again)) == (204, "ok"))
        // A second gate on the same state sees what the first one kept.
        let second = try self.gate(folder, pki)
        #expect(try notify(second, pki, "REVOKE", at: -10) == (200, "revoke-applied"))
        #expect(check(gate, try #require(again)) == (403, "revoked"))
    }

    @Test func theLaterSignedNotificationDecidesWhateverTheOrder() async throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let pki = try TestPKI()
        let gate = try gate(folder, pki)
        // The reversal arrives first; the refund it reverses, signed earlier, comes after and changes nothing.
        #expect(try notify(gate, pki, "REFUND_REVERSED", at: -100) == (200, "lift-applied"))
        #expect(try notify(gate, pki, "REFUND", at: -200) == (200, "revoke-superseded"))
        #expect(try await authorize(gate, pki).1 == "ok")
        // A later refund wins.
        #expect(try notify(gate, pki, "REFUND", at: -50) == (200, "revoke-applied"))
        #expect(try await authorize(gate, pki).1 == "revoked")
    }

    @Test func otherTypesAreAcknowledgedAndChangeNothing() async throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let pki = try TestPKI()
        let gate = try gate(folder, pki)
        for type in ["TEST", "CONSUMPTION_REQUEST", "REFUND_DECLINED", "ONE_APPLE_ADDS_LATER"] {
            #expect(try notify(gate, pki, type, at: -1) == (200, "acknowledged"), "\(type)")
        }
        #expect(try await authorize(gate, pki).1 == "ok")
        #expect(try gate.revocations?.decisions().isEmpty == true)
    }

    @Test func whatDoesNotVerifyIsRefusedWith4xx() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let pki = try TestPKI()
        let stranger = try TestPKI(rootName: "Stranger Root")
        let gate = try gate(folder, pki)
        let otherApp = TestPKI.notificationPayload(
            type: "REFUND", transaction: try pki.notifiedTransaction(type: "REFUND")
        ) {
            var data = $0["data"] as? [String: Any] ?? [:]
            data["bundleId"] = "com.example.other"
            $0["data"] = data
        }
        let cases: [(Int, String, [UInt8])] = [
            (400, "request-malformed", Array("{}".utf8)),
            (400, "jws-malformed", try TestPKI.body(signedPayload: "a.b")),
            (413, "jws-too-large", Array(repeating: 0x20, count: NotificationVerifier.maxBodyLength + 1)),
            (403, "untrusted-root", try stranger.notificationBody(type: "REFUND")),
            (403, "bundle-mismatch", try TestPKI.body(signedPayload: try pki.jws(payload: otherApp))),
        ]
        for (status, code, body) in cases {
            let answer = gate.notify(body: body)
            #expect(answer.status == status && answer.code == code, "\(code)")
        }
        #expect(try gate.revocations?.decisions().isEmpty == true)
        // Without --state, notifications are not taken (503: Apple retries until the gate keeps them).
        let stateless = try self.gate(folder + "/b", pki, state: false)
        #expect(stateless.notify(body: try pki.notificationBody(type: "REFUND")).status == 503)
    }

    @Test func tokensThatNameNoPurchaseAreRefusedOnlyWhereRevocationsAreChecked() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let pki = try TestPKI()
        let gate = try gate(folder, pki)
        let unbound = gate.tokens.issue(product: product, ttl: 600).token
        #expect(check(gate, unbound) == (401, "token-unbound"))
        let stateless = try self.gate(folder + "/b", pki, state: false)
        #expect(check(stateless, unbound) == (204, "ok"))
    }
}
