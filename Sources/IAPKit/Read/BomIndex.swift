import BomKit

/// The Bom's records by path, compact enough for a million paths: each path is keyed by a hash of
/// its exact bytes (Swift's `Hasher`, seeded anew in every process, so a package cannot be crafted
/// to collide), and a record keeps what the Payload is compared on plus where its path lies in one
/// shared byte arena (path bytes and 6 bytes a record, far less than the decoded entries), so the
/// names of entries the Payload never shows are reported without decoding the Bom a second time.
struct BomIndex {
    struct Record {
        var kind: BomEntry.Kind
        var mode: UInt16
        var size: UInt64
        var checksum: UInt32
        var linkTarget: String?
        var seen = false
        /// Where the record's path lies in `names`.
        fileprivate var nameStart: UInt32
        fileprivate var nameLength: UInt16
    }

    private var records: [Int: Record] = [:]
    /// Every record's path, back to back, in Bom order.
    private var names: [UInt8] = []
    /// Bytes of regular files the Bom declares.
    private(set) var declaredFileBytes: UInt64 = 0
    var count: Int { records.count }

    init(_ entries: [BomEntry]) {
        records.reserveCapacity(entries.count)
        for entry in entries {
            let key = Self.key(entry.path)
            guard records[key] == nil else { continue }
            let start = UInt32(clamping: names.count)
            let length = UInt16(clamping: entry.path.utf8.count)
            names.append(contentsOf: entry.path.utf8.prefix(Int(length)))
            records[key] = Record(
                kind: entry.kind, mode: entry.mode, size: entry.size, checksum: entry.checksum,
                linkTarget: entry.linkTarget, nameStart: start, nameLength: length)
            if entry.kind == .file { declaredFileBytes &+= entry.size }
        }
    }

    /// The record at `path`, marked as seen by the Payload.
    mutating func take(_ path: String) -> Record? {
        let key = Self.key(path)
        guard records[key] != nil else { return nil }
        records[key]?.seen = true
        return records[key]
    }

    /// Whether any path was never taken.
    var hasUnseen: Bool { records.values.contains { !$0.seen } }

    /// The paths that were never taken, sorted.
    var unseenPaths: [String] {
        records.values.filter { !$0.seen }.map { record in
            let start = Int(record.nameStart)
            return String(decoding: names[start..<start + Int(record.nameLength)], as: UTF8.self)
        }.sorted()
    }

    /// A per-process hash of the path's exact bytes (not its Unicode-normalised form).
    static func key(_ path: String) -> Int {
        var hasher = Hasher()
        var path = path
        path.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        return hasher.finalize()
    }
}
