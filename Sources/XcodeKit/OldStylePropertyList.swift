/// A value of an old-style (OpenStep) ASCII property list, as `project.pbxproj` is written: strings,
/// arrays, dictionaries and `<hex>` data. Keys keep their order of appearance.
package enum OldStyleValue: Equatable, Sendable {
    case string(String)
    case array([OldStyleValue])
    case dictionary(OldStyleDictionary)
    case data([UInt8])

    /// The string, if this is one.
    package var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The array, if this is one.
    package var array: [OldStyleValue]? {
        if case .array(let items) = self { return items }
        return nil
    }

    /// The dictionary, if this is one.
    package var dictionary: OldStyleDictionary? {
        if case .dictionary(let dictionary) = self { return dictionary }
        return nil
    }
}

/// A dictionary of an old-style property list: unique string keys, in the order they appear.
package struct OldStyleDictionary: Equatable, Sendable {
    /// The keys in their order of appearance.
    package private(set) var keys: [String] = []
    private var values: [String: OldStyleValue] = [:]

    package init() {}

    /// The value for `key`, if any.
    package subscript(key: String) -> OldStyleValue? { values[key] }

    /// Adds `value` for a key not yet present; false (nothing changed) if the key is there already.
    mutating func insert(_ key: String, _ value: OldStyleValue) -> Bool {
        guard values[key] == nil else { return false }
        keys.append(key)
        values[key] = value
        return true
    }

    /// The string value for `key`, if it is a string.
    package func string(_ key: String) -> String? { values[key]?.string }
}

/// Why an old-style property list could not be read, and where: a byte offset and its line and column.
package struct OldStyleSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong.
    package var reason: String
    /// Byte offset in the file.
    package var offset: Int
    /// 1-based line.
    package var line: Int
    /// 1-based column, in bytes.
    package var column: Int

    package var description: String { "line \(line), column \(column): \(reason)" }
}
