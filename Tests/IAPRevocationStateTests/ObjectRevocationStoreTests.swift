import Foundation
import IAPObjectStore
import IAPPurchase
import IAPTestSupport
import Testing

@testable import IAPRevocationState

/// The state in a bucket (a real SeaweedFS), as gates on many hosts share it: the same ordering
/// rule as on disk, a decision of one store seen by another within 2 s, and racing writers that
/// never lose each other's decisions (conditional writes).
@Suite(.enabled(if: SeaweedServer.isInstalled, SeaweedServer.skipReason))
struct ObjectRevocationStoreTests {
    func event(_ effect: RevocationEvent.Effect, secondsAgo: Double, uuid: String?, otid: String = "2000000000000001")
        -> RevocationEvent
    {
        RevocationEvent(
            originalTransactionId: otid, effect: effect, signedDate: Date(timeIntervalSinceNow: -secondsAgo),
            source: effect == .revoke ? "REFUND" : "REFUND_REVERSED", notificationUUID: uuid)
    }

    /// A store on `location` with the read/write identity.
    func store(_ location: S3Location) throws -> ObjectRevocationStore {
        let server = try SeaweedServer.shared()
        let client = try S3Client(location: location, environment: AWSEnvironment(server.environment()))
        return try ObjectRevocationStore(client: client, location: location)
    }

    func location() throws -> S3Location {
        try S3Location("s3://\(SeaweedServer.bucket)/\(SeaweedServer.uniquePrefix())/gate")
    }

    @Test func decisionsFollowTheRuleAndReachTheOtherStoreWithinTwoSeconds() async throws {
        let location = try location()
        let first = try store(location)
        let second = try store(location)
        let otid = "2000000000000001"
        #expect(try second.decision(for: otid) == nil)
        let reversed = event(.lift, secondsAgo: 60, uuid: "b")
        let refund = event(.revoke, secondsAgo: 3600, uuid: "a")
        #expect(try first.record(reversed) == .applied)
        #expect(try second.record(refund) == .superseded)
        #expect(try second.record(reversed) == .duplicate)
        let later = event(.revoke, secondsAgo: 1, uuid: "c")
        #expect(try first.record(later) == .applied)
        let deadline = ContinuousClock.now + .seconds(2)
        while try !second.isRevoked(otid), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(try second.isRevoked(otid))
        // A notification older than the retention horizon changes nothing.
        let ancient = event(.lift, secondsAgo: Double(SQLiteRevocationStore.retention / 1000 + 60), uuid: "d")
        #expect(try first.record(ancient) == .superseded)
        // A third store reads what the others wrote.
        #expect(try store(location).decisions().map(\.notificationUUID) == ["c"])
    }

    @Test func racingWritersLoseNoDecision() async throws {
        let location = try location()
        let stores = [try store(location), try store(location), try store(location)]
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, store) in stores.enumerated() {
                group.addTask {
                    for number in 0..<8 {
                        let otid = "3\(index)0000000000000\(number)"
                        #expect(
                            try store.record(event(.revoke, secondsAgo: 5, uuid: "\(index)-\(number)", otid: otid))
                                == .applied)
                    }
                }
            }
            try await group.waitForAll()
        }
        let kept = try store(location).decisions()
        #expect(kept.count == 24)
        #expect(kept.allSatisfy { $0.effect == .revoke })
    }

    @Test func aStateThatIsNotOneIsRefusedClearly() throws {
        let location = try location()
        let server = try SeaweedServer.shared()
        let client = try S3Client(location: location, environment: AWSEnvironment(server.environment()))
        _ = try client.put(location.key(ObjectRevocationStore.objectName), bytes: Array("not json".utf8))
        #expect {
            _ = try ObjectRevocationStore(client: client, location: location)
        } throws: { error in
            "\(error)".contains("is not a revocation state")
        }
    }
}
