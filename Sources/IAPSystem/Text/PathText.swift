/// Path text split the way the kernel and every archive reader split it: at each "/" byte.
///
/// Swift's `String.split(separator: "/")`, `hasPrefix("/")` and `dropFirst(2)` work on Characters
/// (grapheme clusters), so a "/" followed by a combining mark ("/\u{301}") is no separator to them,
/// though it is one to `openat`, bsdtar and the App Store's installer. Every path of a package or of
/// a content folder is taken apart with these functions instead.
package enum PathText {
    /// The separator byte.
    package static let slash = UInt8(ascii: "/")

    /// True when `path` starts with a "/" byte.
    package static func isAbsolute(_ path: some StringProtocol) -> Bool { path.utf8.first == slash }

    /// True when `path` starts with the bytes "./".
    package static func startsWithDotSlash(_ path: some StringProtocol) -> Bool {
        path.utf8.starts(with: "./".utf8)
    }

    /// The components of `path` between "/" bytes; empty components are kept unless `omittingEmpty`.
    package static func components(_ path: some StringProtocol, omittingEmpty: Bool = false) -> [String] {
        Substring(path).utf8.split(separator: slash, omittingEmptySubsequences: omittingEmpty).map {
            String(Substring($0))
        }
    }

    /// `path` without one leading "./" (two bytes), or `path` itself.
    package static func droppingDotSlash(_ path: String) -> Substring {
        startsWithDotSlash(path) ? Substring(path.utf8.dropFirst(2)) : Substring(path)
    }

    /// The folder that holds `path`: everything before its last "/" byte ("." when there is none,
    /// "/" for an entry of the root folder).
    package static func parent(of path: String) -> String {
        let bytes = Substring(path).utf8
        guard let slashIndex = bytes.lastIndex(of: slash) else { return "." }
        if slashIndex == bytes.startIndex { return "/" }
        return String(Substring(bytes[..<slashIndex]))
    }

    /// The last component of `path`: everything after its last "/" byte (the path itself when it
    /// has none).
    package static func lastComponent(of path: String) -> String {
        let bytes = Substring(path).utf8
        guard let slashIndex = bytes.lastIndex(of: slash) else { return path }
        return String(Substring(bytes[bytes.index(after: slashIndex)...]))
    }

    /// `path` with empty and "." components dropped and each ".." taking away the component before
    /// it, by text alone (no symlink is looked at): for telling two spellings of a path apart.
    package static func normalized(_ path: String) -> String {
        var parts: [String] = []
        for part in components(path, omittingEmpty: true) where part != "." {
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
            } else if !(part == ".." && isAbsolute(path)) {
                parts.append(part)
            }
        }
        let joined = parts.joined(separator: "/")
        return isAbsolute(path) ? "/" + joined : joined.isEmpty ? "." : joined
    }
}
