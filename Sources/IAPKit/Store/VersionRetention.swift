import IAPSystem

/// What a product's folder remembers for pruning (`ROOT/<product>/.retention`, the store's own,
/// replaced atomically under the product's lock): the version an operator pinned by activating it
/// (a rollback), and when each earlier version stopped being current, so `--keep` leaves a
/// version alone while apps that read `current.json` before the switch may still download it.
///
/// One line per fact: `pinned 1.1` and `left 1.0 <seconds since 1970>`. Unreadable lines are
/// skipped: the file only ever protects versions, so losing it costs disk, never a reader.
package struct VersionRetention: Equatable, Sendable {
    static let fileName = ".retention"

    /// The version an operator activated below the newest installed one (nil: none).
    package var pinned: String?
    /// When each version stopped being current (seconds since 1970).
    package var left: [String: Int64] = [:]

    /// Reads the file from `folder` (empty when missing or unreadable).
    static func read(in folder: DirectoryHandle) -> VersionRetention {
        guard let bytes = try? folder.readFile(fileName, limit: 1 << 20) else { return VersionRetention() }
        return VersionRetention(text: bytes)
    }

    /// The state the file's bytes say (unreadable lines skipped).
    package init(text bytes: [UInt8]) {
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let words = line.split(separator: " ")
            if words.count == 2, words[0] == "pinned", ContentVersion(String(words[1])) != nil {
                pinned = String(words[1])
            } else if words.count == 3, words[0] == "left", ContentVersion(String(words[1])) != nil,
                let time = Int64(words[2])
            {
                left[String(words[1])] = time
            }
        }
    }

    /// Nothing pinned, no departures remembered.
    package init() {}

    /// The file's bytes: one line per fact.
    package var text: [UInt8] {
        var text = pinned.map { "pinned \($0)\n" } ?? ""
        for (version, time) in left.sorted(by: { $0.key < $1.key }) { text += "left \(version) \(time)\n" }
        return Array(text.utf8)
    }

    /// Writes the file into `folder` atomically (removed when there is nothing to remember).
    func write(in folder: DirectoryHandle) throws {
        if pinned == nil && left.isEmpty {
            if folder.status(Self.fileName) != nil { try folder.removeTree(Self.fileName) }
            return
        }
        try folder.writeAtomically(Self.fileName, text)
    }

    /// The state after `current` moves from `previous` to `version` at `now`: `previous` remembered
    /// as left then, `version` no longer; pinned when `pinning` (an operator's `activate`) and a
    /// higher version is installed (`newerInstalled`), the pin dropped otherwise.
    package func activating(
        _ version: String, previous: String?, pinning: Bool, newerInstalled: Bool, now: Int64
    ) -> VersionRetention {
        var state = self
        if let previous, previous != version { state.left[previous] = now }
        state.left[version] = nil
        state.pinned = pinning && newerInstalled ? version : nil
        return state
    }

    /// Versions `--keep` must not remove at `now`: the current one, the pinned one, and those
    /// that stopped being current less than `grace` seconds ago.
    func protected(current: String?, now: Int64, grace: Int64) -> Set<String> {
        var kept = Set([current, pinned].compactMap { $0 })
        for (version, time) in left where now - time < grace { kept.insert(version) }
        return kept
    }
}

extension VersionStore.LockedProduct {
    /// The installed version folder whose version compares equal to `version` (`3.50` for
    /// `3.50.0`): one version, whatever its spelling; nil when none is installed.
    package func installedName(of version: ContentVersion) throws -> String? {
        if folder.status(version.text)?.isDirectory == true { return version.text }
        return try versions().first { $0 == version }?.text
    }

    /// What the product remembers for pruning.
    package func retention() -> VersionRetention { VersionRetention.read(in: folder) }

    /// Removes the lowest versions beyond `keep`, never one that `retention` protects now
    /// (the current, the pinned, and those current within `grace` seconds). Returns those removed.
    package func prune(keep: Int, grace: Int64) throws -> [String] {
        let now = WallClock.now().seconds
        let state = retention()
        let current = folder.readSymlink(VersionStore.currentName)
        let plan = state.pruning(try versions(), current: current, keep: keep, grace: grace, now: now)
        for version in plan.removed { try remove(version) }
        if plan.state != state { try plan.state.write(in: folder) }
        return plan.removed
    }
}

extension VersionRetention {
    /// Which of `versions` (lowest first) `--keep keep` removes at `now`: the lowest beyond `keep`
    /// that are not protected (current, pinned, current within `grace` seconds); and the state to
    /// remember afterwards (facts about removed versions and expired departures dropped).
    package func pruning(_ versions: [ContentVersion], current: String?, keep: Int, grace: Int64, now: Int64)
        -> (removed: [String], state: VersionRetention)
    {
        let kept = protected(current: current, now: now, grace: grace)
        var versions = versions
        var removed: [String] = []
        while versions.count > max(keep, 0) {
            guard let oldest = versions.first(where: { !kept.contains($0.text) }) else { break }
            removed.append(oldest.text)
            versions.removeAll { $0.text == oldest.text }
        }
        let installed = Set(versions.map(\.text))
        var state = self
        state.left = state.left.filter { installed.contains($0.key) && now - $0.value < grace }
        if let pinned = state.pinned, !installed.contains(pinned) { state.pinned = nil }
        return (removed, state)
    }
}
