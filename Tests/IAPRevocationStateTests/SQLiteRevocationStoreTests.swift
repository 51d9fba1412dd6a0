import Foundation
import IAPPurchase
import Testing

@testable import IAPRevocationState

/// The SQLite state on disk: decisions kept by the ordering rule, through a reopen, seen at once by
/// a second store on the same folder, bounded by the retention horizon.
@Suite struct SQLiteRevocationStoreTests {
    let otid = "2000000000000001"

    func scratch() throws -> String {
        let path = NSTemporaryDirectory() + "revocation-state-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    func event(_ effect: RevocationEvent.Effect, secondsAgo: Double, uuid: String?, otid: String? = nil)
        -> RevocationEvent
    {
        RevocationEvent(
            originalTransactionId: otid ?? self.otid, effect: effect,
            signedDate: Date(timeIntervalSinceNow: -secondsAgo),
            source: effect == .revoke ? "REFUND" : "REFUND_REVERSED",
            notificationUUID: uuid)
    }

    @Test func decisionsFollowTheRuleAndSurviveAReopen() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let refund = event(.revoke, secondsAgo: 3600, uuid: "a")
        let reversed = event(.lift, secondsAgo: 60, uuid: "b")
        do {
            let store = try SQLiteRevocationStore(folder: folder + "/state")
            #expect(try store.decision(for: otid) == nil)
            #expect(try store.record(reversed) == .applied)
            #expect(try store.record(refund) == .superseded)
            #expect(try store.record(reversed) == .duplicate)
            #expect(try !store.isRevoked(otid))
        }
        let reopened = try SQLiteRevocationStore(folder: folder + "/state")
        #expect(try reopened.decision(for: otid) == reversed)
        let unrevoked = RevocationEvent.byOperator(otid, effect: .revoke)
        #expect(try reopened.record(unrevoked) == .applied)
        #expect(try reopened.isRevoked(otid))
        #expect(try reopened.decisions() == [unrevoked])
    }

    @Test func aSecondStoreOnTheSameFolderSeesEachCommitAtOnce() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let first = try SQLiteRevocationStore(folder: folder)
        let second = try SQLiteRevocationStore(folder: folder)
        #expect(try !second.isRevoked(otid))
        _ = try first.record(event(.revoke, secondsAgo: 10, uuid: "a"))
        #expect(try second.isRevoked(otid))
        _ = try second.record(event(.lift, secondsAgo: 5, uuid: "b"))
        #expect(try !first.isRevoked(otid))
    }

    @Test func concurrentRecordsKeepTheLatest() async throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let stores = [try SQLiteRevocationStore(folder: folder), try SQLiteRevocationStore(folder: folder)]
        let events = (0..<40).map { index in
            event(index % 2 == 0 ? .revoke : .lift, secondsAgo: Double(100 - index), uuid: "n\(index)")
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, item) in events.shuffled().enumerated() {
                group.addTask { _ = try stores[index % 2].record(item) }
            }
            try await group.waitForAll()
        }
        #expect(try stores[0].decision(for: otid) == events.last)
    }

    @Test func oldNotificationsAndOldLiftsDoNotStay() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try SQLiteRevocationStore(folder: folder)
        let horizon = Double(SQLiteRevocationStore.retention / 1000)
        #expect(try store.record(event(.revoke, secondsAgo: horizon + 60, uuid: "old")) == .superseded)
        #expect(try store.decision(for: otid) == nil)
        // An operator's decision counts as now, whatever the horizon.
        #expect(try store.record(.byOperator("7", effect: .revoke)) == .applied)
        #expect(try store.isRevoked("7"))
    }

    @Test func aFileThatIsNotAFolderIsRefused() throws {
        let folder = try scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        FileManager.default.createFile(atPath: folder + "/file", contents: Data("x".utf8))
        #expect(throws: StateError.self) { try SQLiteRevocationStore(folder: folder + "/file") }
        try Data("not a database, not at all".utf8).write(to: URL(fileURLWithPath: folder + "/revocations.sqlite"))
        #expect(throws: StateError.self) { try SQLiteRevocationStore(folder: folder) }
    }
}
