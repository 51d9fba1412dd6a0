/// Why a document was refused, and where.
package struct XMLError: Error, Equatable, Sendable, CustomStringConvertible {
    package enum Kind: String, Equatable, Sendable {
        /// libxml2 found the document not well-formed.
        case malformed
        /// A DOCTYPE where none is allowed, or not the one allowed.
        case doctype
        /// An internal DTD subset: entity, element or attribute declarations.
        case internalSubset
        /// An entity reference other than the five predefined ones.
        case entity
        /// The document is larger or deeper than the limits allow.
        case limit
        /// The handler refused the content (wrong element, bad value...).
        case content
    }

    package var kind: Kind
    package var message: String
    /// 1-based line, 0 when unknown.
    package var line: Int
    /// 1-based column, 0 when unknown.
    package var column: Int

    package init(_ kind: Kind, _ message: String, line: Int = 0, column: Int = 0) {
        self.kind = kind
        self.message = message
        self.line = line
        self.column = column
    }

    package var description: String {
        line > 0 ? "line \(line), column \(column): \(message)" : message
    }
}
