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

    /// The folder that holds `path`: everything before its last "/" byte ("." when there is none,
    /// "/" for an entry of the root folder).
    public static func parent(of path: String) -> String {
        let bytes = Substring(path).utf8
        guard let slashIndex = bytes.lastIndex(of: slash) else { return "." }
        if slashIndex == bytes.startIndex { return "/" }
        return String(Substring(bytes[..<slashIndex]))
    }

    /// The last component of `path`: everything after its last "/" byte (the path itself when it
    /// has none).
    public static func lastComponent(of path: String) -> String {
        let bytes = Substring(path).utf8
        guard let slashIndex = bytes.lastIndex(of: slash) else { return path }
        return String(Substring(bytes[bytes.index(after: slashIndex)...]))
    }
}
