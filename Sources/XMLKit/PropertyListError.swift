/// Why a property list was refused, and where: line and column for XML, byte offset for binary.
package struct PropertyListError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What kind of problem it is.
    package enum Kind: String, Equatable, Sendable {
        /// The input is larger than allowed.
        case tooLarge
        /// Not well-formed XML, or a binary plist whose header or trailer is broken.
        case malformed
        /// A DOCTYPE other than Apple's standard property-list one.
        case doctype
        /// An internal DTD subset (entity, element or attribute declarations).
        case internalSubset
        /// An entity reference other than the five predefined ones.
        case entity
        /// An element that is not part of the property-list vocabulary.
        case unknownElement
        /// Elements in the wrong place: a key outside a dict, two values in `<plist>`, stray text...
        case invalidStructure
        /// A dictionary holds the same key twice.
        case duplicateKey
        /// A value's text or bytes are not valid for its type (integer, real, date, base64, string).
        case invalidValue
        /// A binary plist ends before an object it declares.
        case truncated
        /// A binary offset, object reference or length points outside where it may.
        case outOfRange
        /// A binary object contains itself.
        case cycle
        /// Nesting, object count or another bound was exceeded.
        case limit
        /// A valid but unsupported construct (binary set, UID, null; a binary plist given to the editor).
        case unsupported
        /// The editor did not find the key it was asked to change.
        case keyNotFound
        /// A value has another type than required (the editor changes strings only).
        case wrongType
    }

    /// Where in the input the problem is.
    package enum Location: Equatable, Sendable {
        /// No useful position.
        case unknown
        /// 1-based line and column in an XML plist.
        case line(Int, column: Int)
        /// Byte offset from the start of a binary plist.
        case byteOffset(Int)
    }

    /// What kind of problem it is.
    package var kind: Kind
    /// What is wrong, and what to do, in words.
    package var message: String
    /// Where it is.
    package var location: Location

    /// Makes an error of `kind` at `location`.
    package init(_ kind: Kind, _ message: String, at location: Location = .unknown) {
        self.kind = kind
        self.message = message
        self.location = location
    }

    /// The message, prefixed with the location when there is one.
    package var description: String {
        switch location {
        case .unknown: "property list: \(message)"
        case .line(let line, let column): "property list, line \(line), column \(column): \(message)"
        case .byteOffset(let offset): "binary property list, byte \(offset): \(message)"
        }
    }
}
