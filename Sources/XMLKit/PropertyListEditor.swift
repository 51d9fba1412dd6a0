internal import IAPSystem

/// Changes one string value of an XML plist in place, keeping every other byte: declaration, DOCTYPE,
/// comments, indentation, line ends, key order, other keys and their escaping.
///
/// The document is first read in full by the strict reader (so only a valid plist is edited); libxml2's
/// consumed-byte count at the value's start and end events locates the `<string>` element, whose content
/// bytes are then replaced by the new text, escaped. The result is read again and must equal the
/// original with only that value changed.
package enum PropertyListEditor {
    /// `bytes` with the content of the `<string>` under top-level `key` replaced by `newValue`; only UTF-8
    /// XML plists whose root is a dict, and the key must be present once with a string value.
    package static func replacingString(
        forTopLevelKey key: String, with newValue: String, in bytes: [UInt8],
        maxBytes: Int = PropertyListReader.maxBytes
    ) throws(PropertyListError) -> [UInt8] {
        guard bytes.count <= maxBytes else {
            throw PropertyListError(
                .tooLarge, "the property list is \(bytes.count) bytes, more than the \(maxBytes) allowed")
        }
        guard !bytes.starts(with: Array("bplist".utf8)) else {
            throw PropertyListError(
                .unsupported, "a binary plist cannot be edited in place; read it and write it again as XML")
        }
        try requireUTF8(bytes)
        let (original, events) = try PropertyListXMLReader.read(bytes, maxBytes: maxBytes, locatingKey: key)
        guard case .dictionary(let entries) = original else {
            throw PropertyListError(
                .wrongType, "the plist's root is a \(original.typeName), not a dict, so it has no key '\(key)'")
        }
        guard let events else {
            throw PropertyListError(.keyNotFound, "the plist has no top-level key '\(key)'")
        }
        guard events.elementName == "string" else {
            throw PropertyListError(.wrongType, "the value of '\(key)' is a <\(events.elementName)>, not a <string>")
        }
        let escaped = Array(try PropertyListEscaping.escape(newValue).utf8)
        let (range, replacement) = try splice(bytes, events: events, escaped: escaped, key: key)
        var edited = Array(bytes[..<range.lowerBound])
        edited.append(contentsOf: replacement)
        edited.append(contentsOf: bytes[range.upperBound...])

        let expected = PropertyListValue.dictionary(
            entries.map { entry in
                (key: entry.key, value: entry.key == key ? .string(newValue) : entry.value)
            })
        guard let (reread, _) = try? PropertyListXMLReader.read(edited, maxBytes: Int.max), reread == expected else {
            throw locateFailure(key)
        }
        return edited
    }

    /// The byte range to replace and what to put there.
    private static func splice(
        _ bytes: [UInt8], events: PropertyListXMLBuilder.ValueEvents, escaped: [UInt8], key: String
    )
        throws(PropertyListError) -> (Range<Int>, [UInt8])
    {
        let lessThan = UInt8(ascii: "<")
        let greaterThan = UInt8(ascii: ">")
        let slash = UInt8(ascii: "/")
        // The start event is reported at or before the `>` closing the start tag (the reader allows no
        // attributes on <string>, so no `>` can hide inside the tag).
        guard events.startOffset >= 0, events.startOffset < bytes.count,
            let close = bytes[events.startOffset...].firstIndex(of: greaterThan),
            let open = bytes[..<close].lastIndex(of: lessThan),
            isTag(bytes, at: open + 1, named: "string")
        else { throw locateFailure(key) }
        if bytes[close - 1] == slash {
            // `<string/>`: turn `/>` into `>new</string>`; nothing to do for an empty new value.
            guard !escaped.isEmpty else { return (close..<close, []) }
            return ((close - 1)..<(close + 1), [greaterThan] + escaped + Array("</string>".utf8))
        }
        // The end event is reported just after the `>` of `</string>`: its `<` is the last one before.
        guard let end = events.endOffset, end > close + 1, end <= bytes.count,
            let endTag = bytes[(close + 1)..<end].lastIndex(of: lessThan),
            endTag + 1 < bytes.count, bytes[endTag + 1] == slash,
            isTag(bytes, at: endTag + 2, named: "string")
        else { throw locateFailure(key) }
        return ((close + 1)..<endTag, escaped)
    }

    /// Whether `name` starts at `position`, followed by the end of a tag name.
    private static func isTag(_ bytes: [UInt8], at position: Int, named name: String) -> Bool {
        let nameBytes = Array(name.utf8)
        let after = position + nameBytes.count
        guard after < bytes.count, Array(bytes[position..<after]) == nameBytes else { return false }
        return [0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: "/"), UInt8(ascii: ">")].contains(bytes[after])
    }

    /// Refuses UTF-16 and UTF-32 documents and declared encodings other than UTF-8: new text is spliced in as UTF-8.
    private static func requireUTF8(_ bytes: [UInt8]) throws(PropertyListError) {
        let head = Array(bytes.prefix(4))
        guard !head.contains(0), !head.starts(with: [0xFE, 0xFF]), !head.starts(with: [0xFF, 0xFE]) else {
            throw PropertyListError(
                .unsupported, "only UTF-8 plists can be edited in place; this one looks like UTF-16 or UTF-32")
        }
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        guard body.starts(with: Array("<?xml".utf8)),
            let declarationEnd = firstRange(of: Array("?>".utf8), in: body.prefix(1024))
        else { return }
        let declaration = Array(body[body.startIndex..<declarationEnd])
        guard let encoding = pseudoAttribute("encoding", in: declaration) else { return }
        guard ["utf-8", "utf8"].contains(encoding.lowercased()) else {
            throw PropertyListError(
                .unsupported, "only UTF-8 plists can be edited in place; this one declares encoding '\(encoding)'",
                at: .line(1, column: 1))
        }
    }

    /// The value of `name="…"` (or single-quoted) in an XML declaration.
    private static func pseudoAttribute(_ name: String, in declaration: [UInt8]) -> String? {
        let whitespace: [UInt8] = [0x20, 0x09, 0x0A, 0x0D]
        guard var index = firstRange(of: Array(name.utf8), in: declaration[...]) else { return nil }
        index += name.utf8.count
        while index < declaration.count, whitespace.contains(declaration[index]) { index += 1 }
        guard index < declaration.count, declaration[index] == UInt8(ascii: "=") else { return nil }
        index += 1
        while index < declaration.count, whitespace.contains(declaration[index]) { index += 1 }
        guard index < declaration.count else { return nil }
        let quote = declaration[index]
        guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'"),
            let close = declaration[(index + 1)...].firstIndex(of: quote)
        else { return nil }
        return String(decoding: declaration[(index + 1)..<close], as: UTF8.self)
    }

    private static func firstRange(of needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        var index = haystack.startIndex
        while index + needle.count <= haystack.endIndex {
            if haystack[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    private static func locateFailure(_ key: String) -> PropertyListError {
        PropertyListError(
            .unsupported,
            "could not locate the bytes of the value of '\(key)' exactly, so it was not edited; write the plist again with PropertyListWriter instead"
        )
    }
}
