import IAPSystem

/// Resolves symlink targets inside a package's own tree, following every other link in it,
/// without touching the disk.
package struct SymlinkResolver: Sendable {
    /// How a link resolved.
    package enum Outcome: Equatable, Sendable {
        /// Ends at `components` (below the content root), which exists in the package.
        case inside([String])
        /// Ends at `components`, but nothing in the package is there.
        case dangling([String])
        /// Climbs above the content root.
        case escapes
        /// Absolute target.
        case absolute
        /// Empty target.
        case empty
        /// More than `maxHops` links followed: a loop.
        case loop
    }

    /// Links followed before a resolution is called a loop (as the kernel's ELOOP).
    package static let maxHops = PackageLimits.symlinkHops

    private let kinds: PathKinds
    private let targets: [String: String]

    /// Uses an existing path → kind index; only the links' targets are indexed here.
    init(kinds: PathKinds, entries: [ContentEntry]) {
        var targets: [String: String] = [:]
        for entry in entries where entry.kind == .symlink {
            if let target = entry.linkTarget { targets[entry.path] = target }
        }
        self.kinds = kinds
        self.targets = targets
    }

    /// Indexes the entries by path.
    package init(entries: [ContentEntry]) {
        let paths = entries.map(\.path)
        var targets: [String: String] = [:]
        for (entry, path) in zip(entries, paths) where entry.kind == .symlink {
            if let target = entry.linkTarget { targets[path] = target }
        }
        // The last entry at a path is the one a folder unpacked in order ends up holding.
        kinds = PathKinds(
            paths: paths, entries: entries, positions: entries.indices.map { Int32(truncatingIfNeeded: $0) },
            keepingFirst: false)
        self.targets = targets
    }

    /// Resolves the link at `path` (components below the content root).
    package func resolve(linkAt path: [String]) -> Outcome {
        guard let target = targets[path.joined(separator: "/")] else { return .dangling(path) }
        var hops = 0
        return resolve(target: target, from: Array(path.dropLast()), hops: &hops)
    }

    /// The target of the symlink `entry`, which must lead inside Contents/ (to an entry or to
    /// nothing): what unpack writes; anything else is an error, never written.
    func targetInsideContents(of entry: ContentEntry) throws -> String? {
        guard let target = entry.linkTarget else { return nil }
        let resolved: [String]? =
            switch resolve(linkAt: entry.components) {
            case .inside(let path): path
            case .dangling(let path): path
            default: nil
            }
        guard let resolved, resolved.first == "Contents" else {
            throw IAPKitError.failed(
                "\(entry.rawPath): the symlink to '\(target)' does not stay inside Contents/; not written")
        }
        return target
    }

    private func resolve(target: String, from directory: [String], hops: inout Int) -> Outcome {
        if target.isEmpty { return .empty }
        if PathText.isAbsolute(target) { return .absolute }
        var current = directory
        var pending = PathText.components(target, omittingEmpty: true)
        pending.reverse()
        while let part = pending.popLast() {
            switch part {
            case ".": continue
            case "..":
                if current.isEmpty { return .escapes }
                current.removeLast()
            default:
                current.append(part)
                let key = current.joined(separator: "/")
                if let next = targets[key] {
                    hops += 1
                    if hops > Self.maxHops { return .loop }
                    if next.isEmpty { return .empty }
                    if PathText.isAbsolute(next) { return .absolute }
                    current.removeLast()
                    let more = PathText.components(next, omittingEmpty: true)
                    pending.append(contentsOf: more.reversed())
                } else if !pending.isEmpty, let kind = kinds[key], kind != .directory {
                    return .dangling(current)
                }
            }
        }
        return kinds[current.joined(separator: "/")] != nil || current.isEmpty ? .inside(current) : .dangling(current)
    }
}
