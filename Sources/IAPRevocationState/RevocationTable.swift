import IAPPurchase

/// The revocation table on one connection, its statements prepared once: one row per original
/// purchase, the decision in force (`WITHOUT ROWID`: the key is the row).
final class RevocationTable {
    /// The schema; `user_version` 1.
    static let schema = """
        CREATE TABLE IF NOT EXISTS revocation (
            original_transaction_id TEXT PRIMARY KEY NOT NULL,
            effect TEXT NOT NULL CHECK (effect IN ('revoke', 'lift')),
            signed_ms INTEGER NOT NULL,
            source TEXT NOT NULL,
            notification_uuid TEXT,
            recorded_ms INTEGER NOT NULL
        ) WITHOUT ROWID;
        PRAGMA user_version = 1;
        """

    let connection: SQLiteConnection
    private let select: SQLiteStatement
    private let selectAll: SQLiteStatement
    private let upsert: SQLiteStatement
    private let prune: SQLiteStatement

    /// The statements on `connection`, whose schema is in place.
    init(_ connection: SQLiteConnection) throws(StateError) {
        self.connection = connection
        let columns = "original_transaction_id, effect, signed_ms, source, notification_uuid"
        select = try connection.prepare("SELECT \(columns) FROM revocation WHERE original_transaction_id = ?")
        selectAll = try connection.prepare("SELECT \(columns) FROM revocation ORDER BY original_transaction_id")
        upsert = try connection.prepare(
            "INSERT OR REPLACE INTO revocation (\(columns), recorded_ms) VALUES (?, ?, ?, ?, ?, ?)")
        prune = try connection.prepare("DELETE FROM revocation WHERE effect = 'lift' AND signed_ms < ?")
    }

    /// The decision kept for `originalTransactionId`.
    func decision(for originalTransactionId: String) throws(StateError) -> RevocationEvent? {
        var found: RevocationEvent?
        try select.run([.text(originalTransactionId)]) { row throws(StateError) in found = try Self.event(row) }
        return found
    }

    /// Every decision kept.
    func all() throws(StateError) -> [RevocationEvent] {
        var found: [RevocationEvent] = []
        try selectAll.run { row throws(StateError) in found.append(try Self.event(row)) }
        return found
    }

    /// Keeps `event` as the decision for its purchase, recorded at `nowMilliseconds`.
    func write(_ event: RevocationEvent, nowMilliseconds: Int64) throws(StateError) {
        try upsert.run([
            .text(event.originalTransactionId), .text(event.effect.rawValue), .integer(event.signedMilliseconds),
            .text(event.source), event.notificationUUID.map { .text($0) } ?? .null, .integer(nowMilliseconds),
        ])
    }

    /// Deletes the lifted decisions signed before `milliseconds`.
    func pruneLifted(before milliseconds: Int64) throws(StateError) {
        try prune.run([.integer(milliseconds)])
    }

    /// The decision in the current row.
    private static func event(_ row: SQLiteStatement) throws(StateError) -> RevocationEvent {
        guard let id = row.text(0), let effectName = row.text(1),
            let effect = RevocationEvent.Effect(rawValue: effectName),
            let source = row.text(3)
        else { throw StateError("the state holds a row that is not a revocation (edited by hand?)") }
        return RevocationEvent(
            originalTransactionId: id, effect: effect, signedMilliseconds: row.integer(2), source: source,
            notificationUUID: row.text(4))
    }
}
