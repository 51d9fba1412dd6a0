/// One attribute of an element, namespace prefix kept as written (`prefix:name`).
package struct XMLAttribute: Equatable, Sendable {
    package var name: String
    package var value: String

    package init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// Receives a document's events in order. Throwing an `XMLError` stops the parse.
package protocol XMLEventHandler: AnyObject {
    /// An element opens.
    func startElement(_ name: String, attributes: [XMLAttribute], line: Int) throws(XMLError)
    /// The innermost open element closes.
    func endElement(_ name: String) throws(XMLError)
    /// Character data (may arrive in several pieces for one text node).
    func characters(_ text: String) throws(XMLError)
}
