import IAPSystem

/// One entry of a content tree, wherever it came from: a folder on disk, a bare-tree xar, or a
/// product archive's Payload. The rule engine judges these, so every source is held to the same rules.
package struct ContentEntry: Sendable, Equatable {
    package typealias Kind = EntryKind

    /// The path as the source spelled it ("./Contents/a.png", "Contents/a.png"), for messages.
    package var rawPath: String {
        get { storedRawPath ?? (dotSlash ? "./" + path : path) }
        set {
            storedRawPath = newValue
            dotSlash = false
            spellingIsPath = false
        }
    }
    /// Nil when the spelling is the components joined, with `./` before them if `dotSlash` (most
    /// entries: one string fewer each, a million entries being possible); or, when
    /// `spellingIsPath`, the caller's own string of the joined components, kept so ``path`` needs
    /// no string of its own.
    private var storedRawPath: String?
    private var dotSlash = false
    private var spellingIsPath = false
    /// Path components below the content root, `./` prefix removed, not yet validated.
    package var components: [String] {
        didSet {
            guard spellingIsPath else { return }
            storedRawPath = nil
            spellingIsPath = false
        }
    }
    package var kind: Kind
    /// Permission bits (and set-id/sticky bits), without the file type.
    package var permissions: UInt32
    /// Decoded size of a file's data.
    package var size: UInt64
    /// A symlink's target as stored.
    package var linkTarget: String?
    /// For a hard link, the path (as stored) of the entry it links to.
    package var hardlinkTarget: String?
    package var hasExtendedAttributes: Bool
    package var hasFlags: Bool
    /// What the decoded bytes are, once sniffed (files only).
    package var sniff: ContentSniff?
    /// Byte offset in the package that locates the entry, where known.
    package var offset: UInt64?

    package init(
        rawPath: String, components: [String]? = nil, kind: Kind, permissions: UInt32 = 0o644,
        size: UInt64 = 0, linkTarget: String? = nil, hardlinkTarget: String? = nil,
        hasExtendedAttributes: Bool = false, hasFlags: Bool = false, sniff: ContentSniff? = nil,
        offset: UInt64? = nil, keepingSpelling: Bool = false
    ) {
        let parts = components ?? ContentEntry.components(of: rawPath)
        self.components = parts
        if Self.spells(Substring(rawPath), parts) {
            // `keepingSpelling`: the caller holds this string anyway (a TOC's path), so `path` shares
            // it (not the content root's: the root is reported as ".").
            spellingIsPath = keepingSpelling && !parts.isEmpty
            storedRawPath = spellingIsPath ? rawPath : nil
        } else if PathText.startsWithDotSlash(rawPath), Self.spells(Substring(rawPath).dropFirst(2), parts) {
            storedRawPath = nil
            dotSlash = true
        } else {
            storedRawPath = rawPath
        }
        self.kind = kind
        self.permissions = permissions
        self.size = size
        self.linkTarget = linkTarget
        self.hardlinkTarget = hardlinkTarget
        self.hasExtendedAttributes = hasExtendedAttributes
        self.hasFlags = hasFlags
        self.sniff = sniff
        self.offset = offset
    }

    /// The path below the content root, components joined with "/".
    package var path: String {
        if spellingIsPath, let storedRawPath { return storedRawPath }
        return components.joined(separator: "/")
    }

    /// Equal entries: the same spelling and fields, however the spelling is kept.
    package static func == (a: ContentEntry, b: ContentEntry) -> Bool {
        a.components == b.components && a.kind == b.kind && a.permissions == b.permissions && a.size == b.size
            && a.linkTarget == b.linkTarget && a.hardlinkTarget == b.hardlinkTarget
            && a.hasExtendedAttributes == b.hasExtendedAttributes && a.hasFlags == b.hasFlags && a.sniff == b.sniff
            && a.offset == b.offset && a.rawPath.utf8.elementsEqual(b.rawPath.utf8)
    }

    /// Whether `text` is `components` joined with "/", byte for byte.
    private static func spells(_ text: Substring, _ components: [String]) -> Bool {
        var rest = text.utf8[...]
        for (index, component) in components.enumerated() {
            if index > 0 {
                guard rest.first == UInt8(ascii: "/") else { return false }
                rest = rest.dropFirst()
            }
            guard rest.starts(with: component.utf8) else { return false }
            rest = rest.dropFirst(component.utf8.count)
        }
        return rest.isEmpty
    }

    /// The path as findings name it: below the content root (`.` for the root itself).
    package var reportedPath: String { components.isEmpty ? "." : path }

    /// How findings name an entry stored as `rawPath` (a Payload's `./Contents/x` is `Contents/x`).
    package static func reportedPath(ofStored rawPath: String) -> String {
        let parts = components(of: rawPath)
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }

    /// The stored spelling when it differs from ``reportedPath`` by more than a leading `./`
    /// (an encoded name), else nil.
    package var storedPathIfDifferent: String? {
        guard let stored = storedRawPath else { return nil }
        let reported = reportedPath
        return stored == reported || stored == "./" + reported || (stored == "." && reported == ".") ? nil : stored
    }

    /// Splits a stored path into components, dropping one leading "./" (or a lone ".").
    /// Empty, "." and ".." components are kept so the rules can refuse them.
    package static func components(of rawPath: String) -> [String] {
        if rawPath.utf8.elementsEqual(".".utf8) { return [] }
        let text = PathText.droppingDotSlash(rawPath)
        if text.isEmpty { return [] }
        return PathText.components(text)
    }
}

/// What kind of file system object an entry of a package or content folder is.
public enum EntryKind: Sendable, Equatable, Codable {
    case file, directory, symlink, hardlink, fifo, characterDevice, blockDevice, socket
    case unknown(String)

    /// The lower-case name used in reports.
    public var name: String {
        switch self {
        case .file: "file"
        case .directory: "directory"
        case .symlink: "symlink"
        case .hardlink: "hardlink"
        case .fifo: "fifo"
        case .characterDevice: "character-device"
        case .blockDevice: "block-device"
        case .socket: "socket"
        case .unknown(let other): other
        }
    }

    public init(from decoder: Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        switch name {
        case "file": self = .file
        case "directory": self = .directory
        case "symlink": self = .symlink
        case "hardlink": self = .hardlink
        case "fifo": self = .fifo
        case "character-device": self = .characterDevice
        case "block-device": self = .blockDevice
        case "socket": self = .socket
        default: self = .unknown(name)
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}
