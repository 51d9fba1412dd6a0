import BomKit

/// The Bom's records by path, compact enough for a million paths: each path is keyed by a hash of
/// its exact bytes (Swift's `Hasher`, seeded anew in every process, so a package cannot be crafted
/// to collide), and a record keeps only what the Payload is compared on. The names of entries the
/// Payload never shows are recovered from the Bom again, on that (error) path only.
struct BomIndex {
    struct Record {
        var kind: BomEntry.Kind
        var mode: UInt16
        var size: UInt64
        var checksum: UInt32
        var linkTarget: String?
        var seen = false
    }

    private var records: [Int: Record] = [:]
    /// Bytes of regular files the Bom declares.
    private(set) var declaredFileBytes: UInt64 = 0
    var count: Int { records.count }

    init(_ entries: [BomEntry]) {
        records.reserveCapacity(entries.count)
        for entry in entries {
            let key = Self.key(entry.path)
            guard records[key] == nil else { continue }
            records[key] = Record(
                kind: entry.kind, mode: entry.mode, size: entry.size, checksum: entry.checksum,
                linkTarget: entry.linkTarget)
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

    /// The paths among `entries` (the Bom read again) that were never taken.
    func unseenPaths(in entries: [BomEntry]) -> [String] {
        entries.map(\.path).filter { records[Self.key($0)]?.seen == false }
    }

    /// A per-process hash of the path's exact bytes (not its Unicode-normalised form).
    static func key(_ path: String) -> Int {
        var hasher = Hasher()
        var path = path
        path.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        return hasher.finalize()
    }
}
