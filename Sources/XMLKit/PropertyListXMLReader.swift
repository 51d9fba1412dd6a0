/// Reads XML property lists through the strict libxml2 parser, with Apple's plist DOCTYPE allowed
/// (never fetched) and no internal subset or custom entity.
enum PropertyListXMLReader {
    /// Reads `bytes` as an XML plist; when `locatingKey` is given, also reports where that top-level key's
    /// value lies.
    static func read(_ bytes: [UInt8], maxBytes: Int, locatingKey: String? = nil)
        throws(PropertyListError) -> (PropertyListValue, PropertyListXMLBuilder.ValueEvents?)
    {
        let builder = PropertyListXMLBuilder(
            maxDepth: PropertyListReader.maxDepth,
            maxValues: PropertyListReader.maxValues, locatedKey: locatingKey)
        // Element depth is value depth + 1 for <plist>, +1 spare so the builder's clearer message comes first.
        let limits = XMLLimits(maxBytes: maxBytes, maxDepth: PropertyListReader.maxDepth + 2)
        do throws(XMLError) {
            let parser = try StrictXMLParser(doctype: .applePropertyList, limits: limits, handler: builder)
            builder.parser = parser
            let fed: Result<Void, XMLError> = bytes.withUnsafeBytes { buffer in
                do throws(XMLError) {
                    if buffer.count > 0 { try parser.feed(buffer) }
                    return .success(())
                } catch {
                    return .failure(error)
                }
            }
            try fed.get()
            try parser.finish()
        } catch {
            throw translate(error, refusal: builder.refusal)
        }
        guard let value = builder.result else {
            throw PropertyListError(.invalidStructure, "the document holds no <plist> value")
        }
        return (value, builder.located)
    }

    private static func translate(_ error: XMLError, refusal: PropertyListError.Kind?) -> PropertyListError {
        let kind: PropertyListError.Kind =
            switch error.kind {
            case .malformed: .malformed
            case .doctype: .doctype
            case .internalSubset: .internalSubset
            case .entity: .entity
            case .limit: .limit
            case .content: refusal ?? .invalidStructure
            }
        let location: PropertyListError.Location = error.line > 0 ? .line(error.line, column: error.column) : .unknown
        return PropertyListError(kind, error.message, at: location)
    }
}
