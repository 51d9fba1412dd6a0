internal import CLibXML2

/// Parses untrusted XML with libxml2's SAX interface, strictly: no network, no external or
/// custom entities, no DTD loading, no recovery, bounded size and depth. Feed it in pieces
/// (`feed`, then `finish`), so a large document never has to be held in memory whole.
package final class StrictXMLParser {
    private let session: ParseSession
    private var sax: xmlSAXHandler
    private let context: xmlParserCtxtPtr
    private var fed = 0
    private var finished = false

    /// Starts a parse whose events go to `handler`.
    package init(doctype: DoctypePolicy, limits: XMLLimits, handler: some XMLEventHandler) throws(XMLError) {
        LibXML2.initializeOnce()
        session = ParseSession(handler: handler, doctype: doctype, limits: limits)
        sax = Self.makeHandler()
        guard let context = xmlCreatePushParserCtxt(&sax, Unmanaged.passUnretained(session).toOpaque(), nil, 0, nil)
        else {
            throw XMLError(.malformed, "libxml2 could not create a parser")
        }
        self.context = context
        session.context = context
        xmlCtxtUseOptions(context, Int32(XML_PARSE_NONET.rawValue))
    }

    deinit { xmlFreeParserCtxt(context) }

    /// Bytes of input libxml2 has consumed so far; read inside an event callback, it locates that event.
    var consumedByteCount: Int { Int(xmlByteConsumed(context)) }

    /// Parses the next piece of the document.
    package func feed(_ bytes: UnsafeRawBufferPointer) throws(XMLError) {
        fed += bytes.count
        guard fed <= session.limits.maxBytes else {
            throw XMLError(.limit, "document is larger than the \(session.limits.maxBytes) bytes allowed")
        }
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        let chunk = 1 << 20
        while offset < bytes.count {
            let count = min(chunk, bytes.count - offset)
            try parseChunk(base + offset, count: count, last: false)
            offset += count
        }
    }

    /// Ends the document and checks it was complete.
    package func finish() throws(XMLError) {
        guard !finished else { return }
        finished = true
        try parseChunk(nil, count: 0, last: true)
        if session.depth != 0 { throw XMLError(.malformed, "document ends inside an element") }
        if !session.sawRoot { throw XMLError(.malformed, "document has no root element") }
    }

    private func parseChunk(_ base: UnsafeRawPointer?, count: Int, last: Bool) throws(XMLError) {
        let status = xmlParseChunk(context, base?.assumingMemoryBound(to: CChar.self), Int32(count), last ? 1 : 0)
        if let failure = session.failure { throw failure }
        if status != 0 || context.pointee.wellFormed == 0 {
            throw XMLError(
                .malformed, "not well-formed XML (libxml2 status \(status))",
                line: session.line, column: session.column)
        }
    }

    /// Parses a whole document held in `bytes`, sending events to `handler`.
    package static func parse(
        _ bytes: UnsafeRawBufferPointer, doctype: DoctypePolicy, limits: XMLLimits,
        handler: some XMLEventHandler
    ) throws(XMLError) {
        guard bytes.count <= limits.maxBytes else {
            throw XMLError(.limit, "document is \(bytes.count) bytes, more than the \(limits.maxBytes) allowed")
        }
        let parser = try StrictXMLParser(doctype: doctype, limits: limits, handler: handler)
        if bytes.count > 0 { try parser.feed(bytes) }
        try parser.finish()
    }

    /// Parses a whole document held in a byte array.
    package static func parse(
        _ bytes: [UInt8], doctype: DoctypePolicy, limits: XMLLimits,
        handler: some XMLEventHandler
    ) throws(XMLError) {
        let result: Result<Void, XMLError> = bytes.withUnsafeBytes { buffer in
            do throws(XMLError) {
                try parse(buffer, doctype: doctype, limits: limits, handler: handler)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    private static func makeHandler() -> xmlSAXHandler {
        var sax = xmlSAXHandler()
        sax.initialized = XML_SAX2_MAGIC
        sax.startElementNs = { user, localname, prefix, _, _, _, attributeCount, _, attributes in
            guard let session = ParseSession.from(user), let localname else { return }
            var name = String(cString: localname)
            if let prefix { name = String(cString: prefix) + ":" + name }
            var list: [XMLAttribute] = []
            if let attributes, attributeCount > 0 {
                list.reserveCapacity(Int(attributeCount))
                for i in 0..<Int(attributeCount) {
                    guard let attrName = attributes[i * 5] else { continue }
                    var fullName = String(cString: attrName)
                    if let attrPrefix = attributes[i * 5 + 1] {
                        fullName = String(cString: attrPrefix) + ":" + fullName
                    }
                    var value = ""
                    if let start = attributes[i * 5 + 3], let end = attributes[i * 5 + 4], end >= start {
                        value = String(decoding: UnsafeBufferPointer(start: start, count: end - start), as: UTF8.self)
                    }
                    list.append(XMLAttribute(name: fullName, value: value))
                }
            }
            session.start(name, list)
        }
        sax.endElementNs = { user, localname, prefix, _ in
            guard let session = ParseSession.from(user), let localname else { return }
            var name = String(cString: localname)
            if let prefix { name = String(cString: prefix) + ":" + name }
            session.end(name)
        }
        sax.characters = { user, text, length in
            guard let session = ParseSession.from(user), let text, length > 0 else { return }
            session.characters(String(decoding: UnsafeBufferPointer(start: text, count: Int(length)), as: UTF8.self))
        }
        sax.cdataBlock = sax.characters
        sax.internalSubset = { user, name, externalID, systemID in
            guard let session = ParseSession.from(user) else { return }
            session.doctype(
                name: name.map { String(cString: $0) } ?? "",
                publicID: externalID.map { String(cString: $0) },
                systemID: systemID.map { String(cString: $0) })
        }
        // No externalSubset handler: the external DTD named by a DOCTYPE is never loaded.
        sax.externalSubset = nil
        sax.entityDecl = { user, name, _, _, _, _ in
            let entity = name.map { String(cString: $0) } ?? "?"
            ParseSession.from(user)?.fail(XMLError(.internalSubset, "entity declaration '\(entity)' is not allowed"))
        }
        sax.elementDecl = { user, _, _, _ in
            ParseSession.from(user)?.fail(XMLError(.internalSubset, "element declarations are not allowed"))
        }
        sax.attributeDecl = { user, _, _, _, _, _, tree in
            if let tree { xmlFreeEnumeration(tree) }
            ParseSession.from(user)?.fail(XMLError(.internalSubset, "attribute declarations are not allowed"))
        }
        sax.notationDecl = { user, _, _, _ in
            ParseSession.from(user)?.fail(XMLError(.internalSubset, "notation declarations are not allowed"))
        }
        sax.unparsedEntityDecl = { user, _, _, _, _ in
            ParseSession.from(user)?.fail(XMLError(.internalSubset, "unparsed entity declarations are not allowed"))
        }
        sax.getEntity = { user, name in
            guard let name else { return nil }
            if let predefined = xmlGetPredefinedEntity(name) { return predefined }
            ParseSession.from(user)?.fail(
                XMLError(.entity, "entity reference '&\(String(cString: name));' is not allowed"))
            return nil
        }
        sax.getParameterEntity = { user, name in
            let entity = name.map { String(cString: $0) } ?? "?"
            ParseSession.from(user)?.fail(XMLError(.entity, "parameter entity '%\(entity);' is not allowed"))
            return nil
        }
        sax.serror = { user, error in
            guard let session = ParseSession.from(user), let error else { return }
            let message = error.pointee.message.map { String(cString: $0) } ?? "XML error"
            session.fail(
                XMLError(
                    .malformed, message.trimmingTrailingNewlines(),
                    line: Int(error.pointee.line), column: Int(error.pointee.int2)))
        }
        return sax
    }
}

/// The state of one parse, reached from libxml2's callbacks through the user-data pointer.
private final class ParseSession {
    let handler: any XMLEventHandler
    let doctypePolicy: DoctypePolicy
    let limits: XMLLimits
    var context: xmlParserCtxtPtr?
    var failure: XMLError?
    var depth = 0
    var sawRoot = false

    init(handler: any XMLEventHandler, doctype: DoctypePolicy, limits: XMLLimits) {
        self.handler = handler
        self.doctypePolicy = doctype
        self.limits = limits
    }

    static func from(_ pointer: UnsafeMutableRawPointer?) -> ParseSession? {
        guard let pointer else { return nil }
        let session = Unmanaged<ParseSession>.fromOpaque(pointer).takeUnretainedValue()
        return session.failure == nil ? session : nil
    }

    var line: Int { context.map { Int(xmlSAX2GetLineNumber($0)) } ?? 0 }
    var column: Int { context.map { Int(xmlSAX2GetColumnNumber($0)) } ?? 0 }

    func fail(_ error: XMLError) {
        guard failure == nil else { return }
        var located = error
        if located.line == 0 {
            located.line = line
            located.column = column
        }
        failure = located
        if let context { xmlStopParser(context) }
    }

    func start(_ name: String, _ attributes: [XMLAttribute]) {
        if depth == 0 && sawRoot { return fail(XMLError(.malformed, "more than one root element")) }
        depth += 1
        sawRoot = true
        guard depth <= limits.maxDepth else {
            return fail(XMLError(.limit, "elements nest deeper than \(limits.maxDepth) levels"))
        }
        do { try handler.startElement(name, attributes: attributes, line: line) } catch { fail(error) }
    }

    func end(_ name: String) {
        depth -= 1
        do { try handler.endElement(name) } catch { fail(error) }
    }

    func characters(_ text: String) {
        guard depth > 0 else { return }
        do { try handler.characters(text) } catch { fail(error) }
    }

    func doctype(name: String, publicID: String?, systemID: String?) {
        switch doctypePolicy {
        case .forbidden:
            return fail(XMLError(.doctype, "a DOCTYPE declaration is not allowed here"))
        case .applePropertyList:
            let publicIDs = ["-//Apple//DTD PLIST 1.0//EN", "-//Apple Computer//DTD PLIST 1.0//EN"]
            let systemIDs = [
                "http://www.apple.com/DTDs/PropertyList-1.0.dtd",
                "https://www.apple.com/DTDs/PropertyList-1.0.dtd",
                "file://localhost/System/Library/DTDs/PropertyList.dtd",
            ]
            guard name == "plist", publicID.map(publicIDs.contains) ?? false,
                systemID.map(systemIDs.contains) ?? false
            else {
                return fail(
                    XMLError(
                        .doctype,
                        "only Apple's standard property-list DOCTYPE is allowed, found '\(name)' \(publicID ?? "") \(systemID ?? "")"
                    ))
            }
        }
        if hasInternalSubsetAhead() {
            fail(XMLError(.internalSubset, "an internal DTD subset ([...] in the DOCTYPE) is not allowed"))
        }
    }

    /// libxml2 reports the DOCTYPE before reading an internal subset: look at what follows.
    private func hasInternalSubsetAhead() -> Bool {
        guard let input = context?.pointee.input, var cursor = input.pointee.cur, let end = input.pointee.end else {
            return false
        }
        while cursor < end, [0x20, 0x09, 0x0A, 0x0D].contains(cursor.pointee) { cursor += 1 }
        return cursor < end && cursor.pointee == UInt8(ascii: "[")
    }
}

/// Process-wide libxml2 set-up, done once: initialise, and refuse every external entity load.
enum LibXML2 {
    private static let initialized: Bool = {
        xmlInitParser()
        xmlSetExternalEntityLoader { url, _, _ in nil }
        return true
    }()

    static func initializeOnce() { _ = initialized }
}

extension String {
    func trimmingTrailingNewlines() -> String {
        var s = self
        while s.last == "\n" || s.last == "\r" { s.removeLast() }
        return s
    }
}
