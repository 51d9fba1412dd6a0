import IAPCrypto

/// What kind of file system object a TOC `<file>` describes.
package enum XarFileType: Equatable, Sendable {
    case file, directory, symlink, hardlink, fifo, characterSpecial, blockSpecial, socket
    /// A type name xar does not define.
    case other(String)

    /// The type for a `<type>` text.
    package init(xarName: String) {
        switch xarName {
        case "file": self = .file
        case "directory": self = .directory
        case "symlink": self = .symlink
        case "hardlink": self = .hardlink
        case "fifo": self = .fifo
        case "character special": self = .characterSpecial
        case "block special": self = .blockSpecial
        case "socket": self = .socket
        default: self = .other(xarName)
        }
    }

    /// The `<type>` text xar writes for this type.
    package var xarName: String {
        switch self {
        case .file: "file"
        case .directory: "directory"
        case .symlink: "symlink"
        case .hardlink: "hardlink"
        case .fifo: "fifo"
        case .characterSpecial: "character special"
        case .blockSpecial: "block special"
        case .socket: "socket"
        case .other(let name): name
        }
    }
}

/// How a file's data is stored in the heap (`<encoding style="…"/>`).
package enum XarEncoding: Equatable, Sendable {
    /// `application/octet-stream`: the bytes as they are.
    case stored
    /// `application/x-gzip`: a zlib (RFC 1950) stream, despite the name; xar 1.6.1 also writes
    /// `application/zlib` for it (its `--rfc6713` option, forced when the TOC checksum is SHA-2).
    case zlib
    /// `application/x-bzip2`.
    case bzip2
    /// `application/x-lzma`: an `.lzma` ("alone") stream; early xar wrote `.xz` under this name.
    case lzma
    /// `application/x-xz`: an `.xz` stream.
    case xz
    /// A style xar does not define.
    case other(String)

    /// The encoding for a `style` attribute.
    package init(style: String) {
        switch style {
        case "application/octet-stream": self = .stored
        case "application/x-gzip", "application/zlib": self = .zlib
        case "application/x-bzip2": self = .bzip2
        case "application/x-lzma": self = .lzma
        case "application/x-xz": self = .xz
        default: self = .other(style)
        }
    }

    /// The `style` attribute xar writes for this encoding.
    package var style: String {
        switch self {
        case .stored: "application/octet-stream"
        case .zlib: "application/x-gzip"
        case .bzip2: "application/x-bzip2"
        case .lzma: "application/x-lzma"
        case .xz: "application/x-xz"
        case .other(let style): style
        }
    }
}

/// A digest recorded in the TOC: its `style` attribute and its bytes.
package struct XarChecksum: Equatable, Sendable {
    /// The `style` attribute as written.
    package var style: String
    /// The digest bytes (decoded from the hex text).
    package var digest: [UInt8]

    /// A checksum of `style` with `digest`.
    package init(style: String, digest: [UInt8]) {
        self.style = style
        self.digest = digest
    }

    /// The algorithm the style names, if supported.
    package var algorithm: DigestAlgorithm? { DigestAlgorithm(xarStyle: style) }
}

/// Where a file's bytes sit in the heap and how to decode and check them.
package struct XarData: Equatable, Sendable {
    /// Start of the stored bytes, relative to the heap.
    package var offset: UInt64
    /// Stored (encoded) byte count.
    package var length: UInt64
    /// Decoded byte count.
    package var size: UInt64
    /// How the bytes are encoded.
    package var encoding: XarEncoding
    /// Digest of the stored bytes.
    package var archivedChecksum: XarChecksum?
    /// Digest of the decoded bytes (`extracted-checksum`, or the old `unarchived-checksum`).
    package var extractedChecksum: XarChecksum?

    /// Data with every field given.
    package init(
        offset: UInt64, length: UInt64, size: UInt64, encoding: XarEncoding,
        archivedChecksum: XarChecksum?, extractedChecksum: XarChecksum?
    ) {
        self.offset = offset
        self.length = length
        self.size = size
        self.encoding = encoding
        self.archivedChecksum = archivedChecksum
        self.extractedChecksum = extractedChecksum
    }
}

/// A hard link's role, from `<type link="…">hardlink</type>`.
package enum XarHardLink: Equatable, Sendable {
    /// `link="original"`: this entry carries the data.
    case original
    /// `link="N"`: a link to the file whose id is N.
    case target(UInt64)
}

/// One `<file>` element of the TOC.
package struct XarFile: Equatable, Sendable {
    /// The `id` attribute; nil when missing or not a number.
    package var id: UInt64?
    /// The decoded `<name>` (empty when missing): what every other reader extracts.
    package var name: String
    /// The full path inside the archive: parent directories' decoded names joined with `/`.
    package var path: String
    /// Index in `XarTOC.files` of the enclosing `<file>`, nil at the top level.
    package var parentIndex: Int?
    /// The `<type>`; `.other("")` when missing.
    package var type: XarFileType
    /// Permission and mode bits from the octal `<mode>` text.
    package var mode: UInt32?
    /// Owner's numeric id.
    package var uid: UInt64?
    /// Group's numeric id.
    package var gid: UInt64?
    /// Owner's name.
    package var user: String?
    /// Group's name.
    package var group: String?
    /// The `<mtime>` text as written (ISO-8601).
    package var mtime: String?
    /// The fields few files carry (an encoded name, a link), out of line: nil when all are nil.
    var rare: XarFileRareFields?
    /// The file's data, when it has a complete `<data>`.
    package var data: XarData?
    /// True when the file carries `<ea>` extended attributes.
    package var hasExtendedAttributes: Bool
    /// True when the file carries `<flags>`.
    package var hasFlags: Bool

    /// An entry with only a name and a type; everything else empty.
    package init(id: UInt64?, name: String, path: String, parentIndex: Int? = nil, type: XarFileType) {
        self.id = id
        self.name = name
        self.path = path
        self.parentIndex = parentIndex
        self.type = type
        self.hasExtendedAttributes = false
        self.hasFlags = false
    }
}

/// The TOC's `<checksum>`: where the digest of the compressed TOC sits in the heap.
package struct XarTOCChecksum: Equatable, Sendable {
    /// The `style` attribute as written.
    package var style: String
    /// Offset in the heap, if given as a valid number.
    package var offset: UInt64?
    /// Digest length in bytes, if given as a valid number.
    package var size: UInt64?

    /// A TOC checksum description.
    package init(style: String, offset: UInt64? = nil, size: UInt64? = nil) {
        self.style = style
        self.offset = offset
        self.size = size
    }

    /// The algorithm the style names, if supported.
    package var algorithm: DigestAlgorithm? { DigestAlgorithm(xarStyle: style) }
}

/// The parsed table of contents.
package struct XarTOC: Equatable, Sendable {
    /// The first `<checksum>` of `<toc>`, if any.
    package var checksum: XarTOCChecksum?
    /// How many `<checksum>` elements `<toc>` holds (exactly one is valid).
    package var checksumCount: Int
    /// The `<creation-time>` text.
    package var creationTime: String?
    /// True when the TOC has a `<signature>`.
    package var hasSignature: Bool
    /// True when the TOC has an `<x-signature>`.
    package var hasXSignature: Bool
    /// Every `<file>`, parents before their children (document order).
    package var files: [XarFile]
    /// Every `<signature>` and `<x-signature>`, in document order.
    package var signatures: [XarSignature] = []

    /// A TOC with every field given.
    package init(
        checksum: XarTOCChecksum?, checksumCount: Int, creationTime: String?, hasSignature: Bool,
        hasXSignature: Bool, files: [XarFile]
    ) {
        self.checksum = checksum
        self.checksumCount = checksumCount
        self.creationTime = creationTime
        self.hasSignature = hasSignature
        self.hasXSignature = hasXSignature
        self.files = files
    }

    /// The path of the file at `index` spelled as the TOC stores it (encoded names as stored), or nil
    /// when that is its decoded ``XarFile/path``.
    package func storedPath(ofFileAt index: Int) -> String? {
        var names: [String] = []
        var encoded = false
        var current: Int? = index
        while let at = current, at < files.count, names.count <= files.count {
            encoded = encoded || files[at].storedName != nil
            names.append(files[at].storedName ?? files[at].name)
            current = files[at].parentIndex.flatMap { $0 < at ? $0 : nil }
        }
        return encoded ? names.reversed().joined(separator: "/") : nil
    }

    /// The first file whose full path is `path`.
    package func file(atPath path: String) -> XarFile? {
        files.first { $0.path == path }
    }
}
