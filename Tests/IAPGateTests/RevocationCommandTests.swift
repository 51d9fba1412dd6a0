import Foundation
import IAPPurchase
import IAPRevocationState
import IAPTestSupport
import Testing

/// The operator's commands through the built `iapkg gate` (iapkg running iapkg-gate): revoke and
/// unrevoke count as signed now, the listing shows what is kept in text and JSON, and unusable
/// arguments and folders exit 64 and 2.
@Suite struct RevocationCommandTests {
    let buyer = "2000000000000001"

    @Test func revokeUnrevokeAndList() throws {
        let folder = try GateTests().scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let state = folder + "/state"
        _ = try SQLiteRevocationStore(folder: state)
        let revoke = try Harness.run(["iapkg", "gate", "revoke", "--state", state, buyer])
        #expect(
            revoke.status == 0 && revoke.stdout.hasPrefix("revoked \(buyer) (operator, signed "), "\(revoke.stderr)")
        #expect(try SQLiteRevocationStore(folder: state).isRevoked(buyer))
        let listing = try Harness.run(["iapkg", "gate", "revocations", "--state", state, "--json"])
        let json = try #require(try JSONSerialization.jsonObject(with: listing.stdoutData) as? [String: Any])
        #expect(json["schemaVersion"] as? Int == 1)
        let rows = try #require(json["revocations"] as? [[String: Any]])
        #expect(rows.count == 1 && rows.first?["originalTransactionId"] as? String == buyer)
        #expect(rows.first?["effect"] as? String == "revoke" && rows.first?["source"] as? String == "operator")
        let unrevoke = try Harness.run(["iapkg", "gate", "unrevoke", "--state", state, buyer])
        #expect(unrevoke.status == 0)
        #expect(try !SQLiteRevocationStore(folder: state).isRevoked(buyer))
        let text = try Harness.run(["iapkg", "gate", "revocations", "--state", state])
        #expect(text.status == 0 && text.stdout.hasPrefix("lift\t\(buyer)\t"), "\(text.stdout)")
        #expect(text.stderr.contains("0 revoked, 1 kept"))
    }

    @Test func aDecisionSignedLaterKeepsTheOperatorsOut() throws {
        let folder = try GateTests().scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try SQLiteRevocationStore(folder: folder)
        let future = RevocationEvent(
            originalTransactionId: buyer, effect: .lift, signedDate: Date(timeIntervalSinceNow: 3600),
            source: "REFUND_REVERSED", notificationUUID: "u")
        #expect(try store.record(future) == .applied)
        let revoke = try Harness.run(["iapkg", "gate", "revoke", "--state", folder, buyer])
        #expect(revoke.status == 1 && revoke.stderr.contains("REFUND_REVERSED"), "\(revoke.stderr)")
        #expect(try !store.isRevoked(buyer))
    }

    @Test func unusableArgumentsAndFolders() throws {
        let folder = try GateTests().scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cases: [(Int32, [String])] = [
            (64, ["revoke", "--state", folder, "not an id"]),
            (64, ["unrevoke", "--state", folder]),
            (64, ["revoke", buyer]),
            (2, ["revoke", "--state", folder + "/nowhere", buyer]),
            (2, ["revocations", "--state", folder + "/nowhere"]),
        ]
        for (status, arguments) in cases {
            let result = try Harness.run(["iapkg", "gate"] + arguments)
            #expect(result.status == status, "\(arguments): \(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder + "/nowhere"))
    }
}
