/// The fields of a `<file>` that few files carry (an encoded name, a link), kept out of line: each
/// of 100,000 files reserving room for five optional strings cost ~80 bytes a file for nothing.
/// Immutable, so a ``XarFile`` stays a value: a change makes a new box.
final class XarFileRareFields: Sendable, Equatable {
    /// The values themselves.
    struct Values: Equatable, Sendable {
        var storedName: String?
        var libarchiveName: String?
        var linkTarget: String?
        var linkType: String?
        var hardLink: XarHardLink?
    }

    let values: Values

    init(_ values: Values) { self.values = values }

    static func == (a: XarFileRareFields, b: XarFileRareFields) -> Bool { a.values == b.values }
}

extension XarFile {
    /// The `<name>` text as stored, when it differs from ``name`` (an `enctype="base64"` name); nil otherwise.
    package var storedName: String? {
        get { self[rare: \.storedName] }
        set { self[rare: \.storedName] = newValue }
    }

    /// The name libarchive 3.x (bsdtar) extracts, only where it differs from ``name``: it stops a
    /// base64 name at its first line break, so names over 54 bytes lose their tail there.
    package var libarchiveName: String? {
        get { self[rare: \.libarchiveName] }
        set { self[rare: \.libarchiveName] = newValue }
    }

    /// A symlink's `<link>` text: its target.
    package var linkTarget: String? {
        get { self[rare: \.linkTarget] }
        set { self[rare: \.linkTarget] = newValue }
    }

    /// A symlink's `<link type="…">` attribute (`file`, `directory`, `broken`).
    package var linkType: String? {
        get { self[rare: \.linkType] }
        set { self[rare: \.linkType] = newValue }
    }

    /// A hard link's role, from the `link` attribute of `<type>`.
    package var hardLink: XarHardLink? {
        get { self[rare: \.hardLink] }
        set { self[rare: \.hardLink] = newValue }
    }

    /// One rare field; setting one makes a new box, and none is kept when all are nil.
    private subscript<Value>(rare field: WritableKeyPath<XarFileRareFields.Values, Value?>) -> Value? {
        get { rare?.values[keyPath: field] }
        set {
            var values = rare?.values ?? .init()
            values[keyPath: field] = newValue
            rare = values == .init() ? nil : XarFileRareFields(values)
        }
    }
}
