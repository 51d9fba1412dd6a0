import IAPPurchase
import IAPSystem

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The revocation decisions kept in a folder, in SQLite (`DIR/revocations.sqlite`, WAL mode):
/// every ``record(_:)`` is one `BEGIN IMMEDIATE` transaction (read, decide by
/// ``RevocationDecision``, write) committed with `synchronous = FULL`, so it is on disk (fsync'ed)
/// before it returns and survives `kill -9` and power loss; processes on one host that open the same
/// folder see each other's commits at their next read, as SQLite's WAL guarantees.
///
/// Bounded: one row (about 100 bytes) per original purchase that a REFUND, REVOKE, REFUND_REVERSED
/// or an operator decided — repeated or older deliveries write nothing — and lifted decisions are
/// deleted once signed more than ``retention`` ago; a notification signed before that horizon
/// changes nothing, so a pruned row cannot be brought back by a replay.
package final class SQLiteRevocationStore: RevocationStore {
    /// The database's file name in the folder.
    package static let fileName = "revocations.sqlite"
    /// How long a lifted decision is kept, and how old a notification may be and still count:
    /// 180 days, the reach of the App Store Server API's Get Notification History.
    package static let retention: Int64 = 180 * 86_400 * 1000

    /// The writing connection (one transaction at a time).
    private let writer: Locked<RevocationTable>
    /// The reading connection, so that checks never wait for a write's fsync.
    private let reader: Locked<RevocationTable>
    /// Records since the last pruning.
    private let recordsSincePrune = Locked(0)
    /// The folder.
    package let folder: String

    /// The state in `folder`, created (with the folder, mode 0700) when missing.
    package init(folder: String) throws(StateError) {
        if FileSystem.status(folder) == nil {
            do {
                try FileSystem.makeDirectory(folder, mode: 0o700, existingIsFine: true)
            } catch {
                throw StateError("cannot create the state folder \(folder): \(error)")
            }
        }
        guard FileSystem.status(folder)?.isDirectory == true else {
            throw StateError("the state \(folder) is not a folder")
        }
        self.folder = folder
        let path = folder + "/" + Self.fileName
        let writing = try SQLiteConnection(path: path, create: true)
        try writing.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;")
        try writing.execute("BEGIN IMMEDIATE; \(RevocationTable.schema) COMMIT;")
        let reading = try SQLiteConnection(path: path, create: false)
        try reading.execute("PRAGMA query_only = 1;")
        let writingTable = try RevocationTable(writing)
        let readingTable = try RevocationTable(reading)
        try writingTable.pruneLifted(before: Self.nowMilliseconds() - Self.retention)
        writer = Locked(writingTable)
        reader = Locked(readingTable)
    }

    /// The decision in force for `originalTransactionId`, as committed by any process.
    package func decision(for originalTransactionId: String) throws -> RevocationEvent? {
        try reader.withLock { table throws(StateError) in try table.decision(for: originalTransactionId) }
    }

    /// Every decision kept, by original transaction identifier.
    package func decisions() throws -> [RevocationEvent] {
        try reader.withLock { table throws(StateError) in try table.all() }
    }

    /// Applies `event` by ``RevocationDecision``, durably before returning; a notification signed
    /// more than ``retention`` ago is ``RevocationDecision/Outcome/superseded``.
    package func record(_ event: RevocationEvent) throws -> RevocationDecision.Outcome {
        let now = Self.nowMilliseconds()
        let outcome = try writer.withLock { table throws(StateError) -> RevocationDecision.Outcome in
            try table.connection.execute("BEGIN IMMEDIATE")
            do throws(StateError) {
                let current = try table.decision(for: event.originalTransactionId)
                var outcome = RevocationDecision.outcome(of: event, over: current)
                if event.source != RevocationEvent.operatorSource, event.signedMilliseconds < now - Self.retention {
                    outcome = .superseded
                }
                if outcome == .applied { try table.write(event, nowMilliseconds: now) }
                try table.connection.execute("COMMIT")
                return outcome
            } catch {
                try? table.connection.execute("ROLLBACK")
                throw error
            }
        }
        try pruneNow(every: 1024, now: now)
        return outcome
    }

    /// Deletes lifted decisions past ``retention`` once every `count` records.
    private func pruneNow(every count: Int, now: Int64) throws {
        let due = recordsSincePrune.withLock { records in
            records += 1
            if records < count { return false }
            records = 0
            return true
        }
        guard due else { return }
        try writer.withLock { table throws(StateError) in try table.pruneLifted(before: now - Self.retention) }
    }

    /// Milliseconds since 1970, now.
    static func nowMilliseconds() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }
}
