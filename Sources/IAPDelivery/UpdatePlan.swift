/// One file or symlink of a version, as an update compares it.
package struct DeliveryItem: Sendable, Equatable {
    /// The path relative to the version folder (`ContentInfo.plist`, `Contents/…`).
    package var path: String
    /// `file` or `symlink` (any other kind compares by kind and value alike).
    package var kind: String
    /// A file's SHA-256 (lowercase hex), a symlink's target.
    package var value: String
    /// A file's size in bytes (0 for anything else).
    package var size: UInt64

    /// An item of `kind` at `path` whose content is `value`.
    package init(path: String, kind: String, value: String, size: UInt64) {
        self.path = path
        self.kind = kind
        self.value = value
        self.size = size
    }
}

/// What going from one version to another takes: the items added, changed (same path, other
/// content), unchanged and removed, and the bytes to download. `iapkg diff` prints it; the
/// download client fetches `added` and `changed` and reuses `unchanged` from the installed version.
package struct UpdatePlan: Sendable {
    /// An item whose path is in both versions with different content.
    package struct Change: Sendable, Equatable {
        /// The item in the old version.
        package var old: DeliveryItem
        /// The item in the new version.
        package var new: DeliveryItem
    }

    /// Items of the new version whose path the old one lacks, in the new version's order.
    package var added: [DeliveryItem] = []
    /// Items at the same path with another kind or content, in the new version's order.
    package var changed: [Change] = []
    /// Items of the new version identical in the old one (same path, kind and content).
    package var unchanged: [DeliveryItem] = []
    /// Items of the old version whose path the new one lacks, in the old version's order.
    package var removed: [DeliveryItem] = []

    /// The plan from `old` to `new` (each path at most once on each side).
    package init(from old: [DeliveryItem], to new: [DeliveryItem]) {
        var before: [String: DeliveryItem] = [:]
        before.reserveCapacity(old.count)
        for item in old { before[item.path] = item }
        var newPaths = Set<String>()
        newPaths.reserveCapacity(new.count)
        for item in new {
            newPaths.insert(item.path)
            if let previous = before[item.path] {
                if previous.kind == item.kind && previous.value == item.value {
                    unchanged.append(item)
                } else {
                    changed.append(Change(old: previous, new: item))
                }
            } else {
                added.append(item)
            }
        }
        removed = old.filter { !newPaths.contains($0.path) }
    }

    /// Bytes of the files added or changed: what fetching them one by one downloads.
    package var downloadBytes: UInt64 {
        added.reduce(0) { $0 &+ ($1.kind == "file" ? $1.size : 0) }
            &+ changed.reduce(0) { $0 &+ ($1.new.kind == "file" ? $1.new.size : 0) }
    }
}
