/// A small in-memory element tree, for documents of bounded size (plists, Distribution, PackageInfo).
package final class XMLElement {
    package let name: String
    package let attributes: [XMLAttribute]
    /// 1-based line where the element starts.
    package let line: Int
    package private(set) var children: [XMLElement] = []
    /// The element's own character data, concatenated (text between child elements included).
    package private(set) var text: String = ""

    init(name: String, attributes: [XMLAttribute], line: Int) {
        self.name = name
        self.attributes = attributes
        self.line = line
    }

    /// The value of attribute `name`, if present.
    package func attribute(_ name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }

    /// The first child element called `name`.
    package func child(_ name: String) -> XMLElement? {
        children.first { $0.name == name }
    }

    /// Every child element called `name`.
    package func children(named name: String) -> [XMLElement] {
        children.filter { $0.name == name }
    }

    /// Parses a whole document into a tree; at most `maxElements` elements.
    package static func parse(
        _ bytes: [UInt8], doctype: DoctypePolicy, limits: XMLLimits,
        maxElements: Int = 100_000
    ) throws(XMLError) -> XMLElement {
        let builder = TreeBuilder(maxElements: maxElements)
        try StrictXMLParser.parse(bytes, doctype: doctype, limits: limits, handler: builder)
        guard let root = builder.root else { throw XMLError(.malformed, "document has no root element") }
        return root
    }

    fileprivate func append(_ child: XMLElement) { children.append(child) }
    fileprivate func appendText(_ more: String) { text += more }
}

/// Builds an `XMLElement` tree from parser events.
private final class TreeBuilder: XMLEventHandler {
    let maxElements: Int
    var count = 0
    var root: XMLElement?
    var stack: [XMLElement] = []

    init(maxElements: Int) { self.maxElements = maxElements }

    func startElement(_ name: String, attributes: [XMLAttribute], line: Int) throws(XMLError) {
        count += 1
        guard count <= maxElements else { throw XMLError(.limit, "more than \(maxElements) elements") }
        let element = XMLElement(name: name, attributes: attributes, line: line)
        if let parent = stack.last { parent.append(element) } else { root = element }
        stack.append(element)
    }

    func endElement(_ name: String) throws(XMLError) {
        stack.removeLast()
    }

    func characters(_ text: String) throws(XMLError) {
        stack.last?.appendText(text)
    }
}
