import IAPSystem

/// The entries the rules judge (every one but the content root itself), with each path joined once
/// and one path → kind index shared by the rules that look paths up: no per-rule copies, since a
/// package can hold a million entries.
struct EntryList: RandomAccessCollection {
    let all: [ContentEntry]
    /// Positions in `all` of the entries judged.
    private let positions: [Int32]
    /// `self[i].path`, computed once.
    let paths: [String]
    /// The kind of the first entry at each path.
    let kindByPath: PathKinds

    init(_ all: [ContentEntry]) {
        self.all = all
        var positions: [Int32] = []
        positions.reserveCapacity(all.count)
        for (index, entry) in all.enumerated() where !entry.components.isEmpty || PathText.isAbsolute(entry.rawPath) {
            positions.append(Int32(truncatingIfNeeded: index))
        }
        self.positions = positions
        let paths = positions.map { all[Int($0)].path }
        self.paths = paths
        kindByPath = PathKinds(paths: paths, entries: all, positions: positions, keepingFirst: true)
    }

    /// Every entry given, the content root included (for link resolution).
    var elements: [ContentEntry] { all }
    var startIndex: Int { 0 }
    var endIndex: Int { positions.count }
    subscript(position: Int) -> ContentEntry { all[Int(positions[position])] }
}

/// A path compared byte for byte (Swift's String equality folds Unicode normalisation).
struct ExactPath: Hashable {
    let path: String
    init(_ path: String) { self.path = path }
    static func == (a: ExactPath, b: ExactPath) -> Bool { a.path.utf8.elementsEqual(b.path.utf8) }
    func hash(into hasher: inout Hasher) {
        for byte in path.utf8 { hasher.combine(byte) }
    }
}
