/// Path text split the way the kernel and every archive reader split it: at each "/" byte.
///
/// Swift's `String.split(separator: "/")`, `hasPrefix("/")` and `dropFirst(2)` work on Characters
/// (grapheme clusters), so a "/" followed by a combining mark ("/\u{301}") is no separator to them,
/// though it is one to `openat`, bsdtar and the App Store's installer. Every path of a package or of
/// a content folder is taken apart with these functions instead.
public enum PathText {
    /// The separator byte.
    public static let slash = UInt8(ascii: "/")

    /// True when `path` starts with a "/" byte.
    public static func isAbsolute(_ path: some StringProtocol) -> Bool { path.utf8.first == slash }

    /// True when `path` starts with the bytes "./".
    public static func startsWithDotSlash(_ path: some StringProtocol) -> Bool {
        path.utf8.starts(with: "./".utf8)
    }

    /// The components of `path` between "/" bytes; empty components are kept unless `omittingEmpty`.
    public static func components(_ path: some StringProtocol, omittingEmpty: Bool = false) -> [String] {
        Substring(path).utf8.split(separator: slash, omittingEmptySubsequences: omittingEmpty).map {
            String(Substring($0))
        }
    }

    /// `path` without one leading "./" (two bytes), or `path` itself.
    public static func droppingDotSlash(_ path: String) -> Substring {
        startsWithDotSlash(path) ? Substring(path.utf8.dropFirst(2)) : Substring(path)
    }

    /// `path` with empty and "." components dropped and each ".." taking away the component before
    /// it, by text alone (no symlink is looked at): for telling two spellings of a path apart.
    public static func normalized(_ path: String) -> String {
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

    /// The folder holding `path` ("." for a bare name), by text.
    public static func parent(_ path: String) -> String {
        let parts = components(normalized(path), omittingEmpty: true)
        guard parts.count > 1 else { return isAbsolute(path) ? "/" : "." }
        return (isAbsolute(path) ? "/" : "") + parts.dropLast().joined(separator: "/")
    }
}
