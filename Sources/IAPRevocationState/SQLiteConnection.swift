internal import CSQLite

/// Why the state could not be read or written: SQLite's own message, and what was being done.
package struct StateError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What failed and why.
    package let description: String

    /// An error saying `description`.
    package init(_ description: String) { self.description = description }
}

/// One SQLite connection, the owner of its `sqlite3` handle (closed in `deinit`). Not safe to use
/// from two threads at once: ``SQLiteRevocationStore`` keeps each connection behind a mutex.
final class SQLiteConnection {
    /// The handle.
    private let handle: OpaquePointer
    /// The database file, for messages.
    let path: String

    /// Opens (creating when `create`) the database at `path`; every wait for another process's
    /// lock lasts at most `busyTimeout` milliseconds.
    init(path: String, create: Bool, busyTimeout: Int32 = 5000) throws(StateError) {
        var opened: OpaquePointer?
        let flags = (create ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READWRITE) | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(path, &opened, flags, nil)
        guard status == SQLITE_OK, let opened else {
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
            sqlite3_close_v2(opened)
            throw StateError("cannot open the state \(path): \(message)")
        }
        handle = opened
        self.path = path
        sqlite3_busy_timeout(handle, busyTimeout)
        sqlite3_extended_result_codes(handle, 1)
    }

    deinit { sqlite3_close_v2(handle) }

    /// Runs `sql` (one or more statements without parameters).
    func execute(_ sql: String) throws(StateError) {
        try check(sqlite3_exec(handle, sql, nil, nil, nil), doing: sql)
    }

    /// A prepared statement of `sql`.
    func prepare(_ sql: String) throws(StateError) -> SQLiteStatement {
        var statement: OpaquePointer?
        try check(sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil), doing: sql)
        guard let statement else { throw StateError("SQLite prepared nothing for: \(sql)") }
        return SQLiteStatement(statement, connection: self)
    }

    /// Throws unless `status` is OK, DONE or ROW, with SQLite's message and what was being done.
    func check(_ status: Int32, doing what: String) throws(StateError) {
        guard status != SQLITE_OK, status != SQLITE_DONE, status != SQLITE_ROW else { return }
        throw StateError("the state \(path): \(String(cString: sqlite3_errmsg(handle))) (\(what.prefix(60)))")
    }
}

/// One prepared statement, the owner of its `sqlite3_stmt` (finalized in `deinit`); it keeps its
/// connection alive, which SQLite requires until the statement is finalized.
final class SQLiteStatement {
    /// The handle.
    private let handle: OpaquePointer
    /// The connection it was prepared on.
    private let connection: SQLiteConnection

    init(_ handle: OpaquePointer, connection: SQLiteConnection) {
        self.handle = handle
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    /// A value to bind.
    enum Value {
        case text(String)
        case integer(Int64)
        case null
    }

    /// Runs the statement with `values` bound in order, calling `row` for each result row; the
    /// statement is reset afterwards, ready for the next run.
    func run(_ values: [Value] = [], row: (SQLiteStatement) throws(StateError) -> Void = { _ throws(StateError) in })
        throws(StateError)
    {
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        for (index, value) in values.enumerated() {
            let position = Int32(index + 1)
            let status: Int32
            switch value {
            case .text(let text): status = sqlite3_bind_text(handle, position, text, -1, Self.transient)
            case .integer(let number): status = sqlite3_bind_int64(handle, position, number)
            case .null: status = sqlite3_bind_null(handle, position)
            }
            try connection.check(status, doing: "binding a value")
        }
        while true {
            let status = sqlite3_step(handle)
            if status == SQLITE_ROW {
                try row(self)
            } else {
                try connection.check(status, doing: "a statement")
                return
            }
        }
    }

    /// The text of column `index` of the current row, nil when it is NULL.
    func text(_ index: Int32) -> String? {
        guard let bytes = sqlite3_column_text(handle, index) else { return nil }
        return String(cString: bytes)
    }

    /// The integer of column `index` of the current row.
    func integer(_ index: Int32) -> Int64 { sqlite3_column_int64(handle, index) }

    /// SQLite copies bound text at once (SQLITE_TRANSIENT).
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
