/// Builds a `PropertyListValue` from the events of an XML plist, refusing anything outside the plist
/// vocabulary. Optionally notes where the value of one top-level key lies in the input, for the editor.
final class PropertyListXMLBuilder: XMLEventHandler {
    /// Where a top-level key's value was found: parser byte counts read at its start and end events.
    struct ValueEvents {
        /// The value's element name (`string`, `integer`, ...).
        var elementName: String
        /// Bytes consumed when the value's start tag was reported: at or before its closing `>` or `/>`.
        var startOffset: Int
        /// Bytes consumed when the value's end was reported: just after its end tag (or `/>`).
        var endOffset: Int?
    }

    private enum ContainerKind { case plist, array, dict }

    private struct Container {
        var kind: ContainerKind
        var items: [PropertyListValue] = []
        var entries: [(key: String, value: PropertyListValue)] = []
        var keys: Set<String> = []
        var pendingKey: String?
    }

    private enum Leaf: String { case key, string, integer, real, date, data, `true`, `false` }

    /// Deepest value nesting accepted (the root value is at depth 1).
    let maxDepth: Int
    /// Most values accepted in one document.
    let maxValues: Int
    /// The top-level key whose value's position is wanted, if any.
    let locatedKey: String?
    /// The parser feeding this builder; read for byte positions when `locatedKey` is set.
    weak var parser: StrictXMLParser?

    /// The kind of the last refusal thrown as an `XMLError` of kind `.content`.
    private(set) var refusal: PropertyListError.Kind?
    /// The document's value, once `<plist>` has closed.
    private(set) var result: PropertyListValue?
    /// Where `locatedKey`'s value lies, when found.
    private(set) var located: ValueEvents?

    private var containers: [Container] = []
    private var leaf: Leaf?
    private var leafText = ""
    private var valueCount = 0
    private var awaitingLocatedValue = false
    private var locatingLeaf = false

    init(maxDepth: Int, maxValues: Int, locatedKey: String? = nil) {
        self.maxDepth = maxDepth
        self.maxValues = maxValues
        self.locatedKey = locatedKey
    }

    func startElement(_ name: String, attributes: [XMLAttribute], line: Int) throws(XMLError) {
        if let leaf {
            throw refuse(.invalidStructure, "element <\(name)> inside <\(leaf.rawValue)>, which holds text only")
        }
        guard let top = containers.last else {
            guard name == "plist" else {
                throw refuse(.invalidStructure, "the root element is <\(name)>; a property list's root is <plist>")
            }
            for attribute in attributes where attribute.name != "version" || attribute.value != "1.0" {
                throw refuse(
                    .invalidStructure,
                    "unexpected attribute \(attribute.name)=\"\(attribute.value)\" on <plist>; only version=\"1.0\" is allowed"
                )
            }
            containers.append(Container(kind: .plist))
            return
        }
        if let attribute = attributes.first {
            throw refuse(.invalidStructure, "unexpected attribute \(attribute.name) on <\(name)>")
        }
        if name == "key" {
            guard top.kind == .dict else { throw refuse(.invalidStructure, "<key> outside a <dict>") }
            guard top.pendingKey == nil else {
                throw refuse(.invalidStructure, "two <key> elements in a row; each key needs a value")
            }
            leaf = .key
            leafText = ""
            return
        }
        switch top.kind {
        case .plist where !top.items.isEmpty:
            throw refuse(.invalidStructure, "<plist> holds more than one value")
        case .dict where top.pendingKey == nil:
            throw refuse(.invalidStructure, "<\(name)> in a <dict> without a <key> before it")
        default: break
        }
        valueCount += 1
        guard valueCount <= maxValues else { throw refuse(.limit, "more than \(maxValues) values") }
        guard containers.count <= maxDepth else { throw refuse(.limit, "values nest deeper than \(maxDepth) levels") }
        noteLocatedValueStart(name)
        switch name {
        case "dict": containers.append(Container(kind: .dict))
        case "array": containers.append(Container(kind: .array))
        default:
            guard let kind = Leaf(rawValue: name) else {
                throw refuse(
                    .unknownElement,
                    "unknown element <\(name)>; a plist holds dict, array, key, string, integer, real, true, false, date and data"
                )
            }
            leaf = kind
            leafText = ""
        }
    }

    func endElement(_ name: String) throws(XMLError) {
        if let finished = leaf {
            leaf = nil
            noteLocatedValueEnd()
            if finished == .key {
                let key = leafText
                guard !containers[containers.count - 1].keys.contains(key) else {
                    throw refuse(.duplicateKey, "key '\(key)' appears twice in one <dict>")
                }
                containers[containers.count - 1].keys.insert(key)
                containers[containers.count - 1].pendingKey = key
                awaitingLocatedValue = containers.count == 2 && key == locatedKey
                return
            }
            try add(leafValue(finished, leafText))
            return
        }
        guard let container = containers.popLast() else { return }
        switch container.kind {
        case .plist:
            guard let value = container.items.first else { throw refuse(.invalidStructure, "<plist> holds no value") }
            result = value
        case .array:
            try add(.array(container.items))
        case .dict:
            if let key = container.pendingKey {
                throw refuse(.invalidStructure, "key '\(key)' has no value before </dict>")
            }
            try add(.dictionary(container.entries))
        }
    }

    func characters(_ text: String) throws(XMLError) {
        switch leaf {
        case .true?, .false?:
            throw refuse(.invalidStructure, "<\(leaf?.rawValue ?? "")/> holds no text")
        case .some:
            leafText += text
        case nil:
            guard text.utf8.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) else {
                throw refuse(.invalidStructure, "text outside a value element")
            }
        }
    }

    private func add(_ value: PropertyListValue) throws(XMLError) {
        let index = containers.count - 1
        switch containers[index].kind {
        case .plist, .array:
            containers[index].items.append(value)
        case .dict:
            guard let key = containers[index].pendingKey else { throw refuse(.invalidStructure, "value without a key") }
            containers[index].entries.append((key: key, value: value))
            containers[index].pendingKey = nil
        }
    }

    private func leafValue(_ kind: Leaf, _ text: String) throws(XMLError) -> PropertyListValue {
        switch kind {
        case .string, .key: return .string(text)
        case .true: return .bool(true)
        case .false: return .bool(false)
        case .integer:
            guard let number = PropertyListNumbers.integer(text) else {
                throw refuse(
                    .invalidValue, "<integer>\(text.prefix(40))</integer> is not a decimal number that fits in 64 bits")
            }
            return .integer(number)
        case .real:
            guard let number = PropertyListNumbers.real(text) else {
                throw refuse(.invalidValue, "<real>\(text.prefix(40))</real> is not a decimal number")
            }
            return .real(number)
        case .date:
            guard PropertyListDate.isValid(text) else {
                throw refuse(
                    .invalidValue, "<date>\(text.prefix(40))</date> is not a date of the form YYYY-MM-DDTHH:MM:SSZ")
            }
            return .date(text)
        case .data:
            guard let bytes = Base64.decode(text) else {
                throw refuse(.invalidValue, "<data> does not hold valid base64")
            }
            return .data(bytes)
        }
    }

    private func noteLocatedValueStart(_ name: String) {
        guard awaitingLocatedValue, containers.count == 2 else { return }
        awaitingLocatedValue = false
        located = ValueEvents(elementName: name, startOffset: parser?.consumedByteCount ?? -1)
        locatingLeaf = Leaf(rawValue: name) != nil
    }

    private func noteLocatedValueEnd() {
        guard locatingLeaf else { return }
        locatingLeaf = false
        located?.endOffset = parser?.consumedByteCount
    }

    private func refuse(_ kind: PropertyListError.Kind, _ message: String) -> XMLError {
        refusal = kind
        return XMLError(.content, message)
    }
}
