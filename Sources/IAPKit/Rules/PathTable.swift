/// A hash set of entry positions, each standing for its entry's path (or a key made from it):
/// 8 bytes a slot, where a `[String: Int]` of a million paths takes 24 bytes a slot plus a
/// String per key. The caller hashes the key and says when two keys are equal.
struct PathTable: Sendable {
    /// Per slot: the hash's high 32 bits, then position + 1 in the low 32 bits; 0 is empty.
    private var slots: [UInt64]
    private let mask: Int

    /// Room for `capacity` keys at a load of at most a half.
    init(capacity: Int) {
        var size = 16
        while size < capacity * 2 { size *= 2 }
        slots = [UInt64](repeating: 0, count: size)
        mask = size - 1
    }

    /// The position already standing for an equal key; nil once `position` stands for it.
    mutating func firstOrInsert(hash: Int, position: Int, isEqual: (Int) -> Bool) -> Int? {
        let (slot, found) = probe(hash: hash, isEqual: isEqual)
        if found == nil { slots[slot] = Self.slotValue(hash: hash, position: position) }
        return found
    }

    /// Makes `position` stand for its key, in place of any equal key's position.
    mutating func replace(hash: Int, position: Int, isEqual: (Int) -> Bool) {
        slots[probe(hash: hash, isEqual: isEqual).slot] = Self.slotValue(hash: hash, position: position)
    }

    /// The position standing for a key equal to the one hashed, if any.
    func first(hash: Int, isEqual: (Int) -> Bool) -> Int? {
        probe(hash: hash, isEqual: isEqual).found
    }

    /// The slot holding an equal key (and its position), or the empty slot where it would go.
    private func probe(hash: Int, isEqual: (Int) -> Bool) -> (slot: Int, found: Int?) {
        let tag = UInt64(UInt(bitPattern: hash) >> 32)
        var slot = hash & mask
        while slots[slot] != 0 {
            let entry = slots[slot]
            let position = Int(entry & 0xFFFF_FFFF) - 1
            if entry >> 32 == tag, isEqual(position) { return (slot, position) }
            slot = (slot + 1) & mask
        }
        return (slot, nil)
    }

    private static func slotValue(hash: Int, position: Int) -> UInt64 {
        precondition(position >= 0 && position < Int(UInt32.max), "a position the table cannot hold")
        return UInt64(UInt(bitPattern: hash) >> 32) << 32 | UInt64(position + 1)
    }
}

/// Path → kind of a list of entries, as a `[String: ContentEntry.Kind]` would answer it (String
/// equality, so Unicode-equivalent spellings are one path), without a copy of any path.
struct PathKinds: Sendable {
    /// `paths[i]` is the path of `entries[positions[i]]`.
    private let paths: [String]
    private let entries: [ContentEntry]
    private let positions: [Int32]
    private var table: PathTable

    /// Indexes `paths`, but not the content root's (an entry of no components); where several
    /// entries share a path, the first (or the last) one's kind is kept.
    init(paths: [String], entries: [ContentEntry], positions: [Int32], keepingFirst: Bool) {
        self.paths = paths
        self.entries = entries
        self.positions = positions
        table = PathTable(capacity: paths.count)
        for (index, path) in paths.enumerated() where !entries[Int(positions[index])].components.isEmpty {
            if keepingFirst {
                _ = table.firstOrInsert(hash: path.hashValue, position: index) { paths[$0] == path }
            } else {
                table.replace(hash: path.hashValue, position: index) { paths[$0] == path }
            }
        }
    }

    /// The kind of the entry at `path`, nil when no entry is there.
    subscript(path: String) -> ContentEntry.Kind? {
        table.first(hash: path.hashValue) { paths[$0] == path }.map { entries[Int(positions[$0])].kind }
    }
}
