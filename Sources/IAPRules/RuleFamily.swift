/// The group a rule belongs to: the rows of the rule table (`iapkg rules --markdown`), in the order
/// of these cases.
public enum RuleFamily: String, CaseIterable, Codable, Sendable {
    /// The xar container: header, table of contents, heap, checksums, signatures.
    case container
    /// The package's shape: the content root, a product archive's parts.
    case shape
    /// ContentInfo.plist and what an update requires of it.
    case contentInfo = "content-info"
    /// The package's and the content's sizes.
    case size
    /// Executable code, judged by bytes and by names.
    case executable
    /// Symbolic and hard links.
    case links
    /// Entry names, paths, types and modes.
    case entries
    /// Clutter a package should not carry.
    case hygiene
    /// What `iapkg serve` reports when a valid package cannot be installed.
    case store
    /// An In-App Purchase Content Xcode project that `build`, `validate` or `init --from` reads.
    case xcode

    /// The group's name in the rule table.
    public var title: String {
        switch self {
        case .container: "container (xar)"
        case .shape: "shape"
        case .contentInfo: "ContentInfo.plist"
        case .size: "size"
        case .executable: "executable code"
        case .links: "links"
        case .entries: "entries"
        case .hygiene: "hygiene"
        case .store: "store (`iapkg serve`)"
        case .xcode: "Xcode project (`PROJECT.xcodeproj`)"
        }
    }
}
