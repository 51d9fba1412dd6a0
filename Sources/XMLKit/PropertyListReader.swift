internal import IAPSystem

/// The two encodings a property list may come in.
package enum PropertyListFormat: Sendable {
    /// Apple's XML plist (`<plist version="1.0">`).
    case xml
    /// Apple's binary plist (`bplist00`).
    case binary
}

/// Reads a property list from bytes, XML or binary, strictly and within bounds.
package enum PropertyListReader {
    /// Deepest value nesting accepted; the root value is at depth 1.
    package static let maxDepth = 64
    /// Largest property list read unless a caller says otherwise: 1 MiB, as ContentInfo.plist.
    package static let maxBytes = 1 << 20
    /// Most values one document may produce (shared binary objects count each time they are used).
    package static let maxValues = 1 << 18

    /// Parses `bytes` (at most `maxBytes`) as a binary plist when it starts with `bplist00`, else as XML.
    package static func read(_ bytes: [UInt8], maxBytes: Int = PropertyListReader.maxBytes)
        throws(PropertyListError) -> (PropertyListValue, PropertyListFormat)
    {
        guard bytes.count <= maxBytes else {
            throw PropertyListError(
                .tooLarge, "the property list is \(bytes.count) bytes, more than the \(maxBytes) allowed")
        }
        if bytes.starts(with: Array("bplist00".utf8)) {
            return (try PropertyListBinaryReader.read(bytes), .binary)
        }
        if bytes.starts(with: Array("bplist".utf8)) {
            let version = String(decoding: bytes.prefix(8).dropFirst(6), as: UTF8.self)
            throw PropertyListError(
                .unsupported, "binary property list version '\(version)' is not supported; only bplist00 is",
                at: .byteOffset(6))
        }
        return (try PropertyListXMLReader.read(bytes, maxBytes: maxBytes).0, .xml)
    }
}
