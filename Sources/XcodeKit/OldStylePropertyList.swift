/// A value of an old-style (OpenStep) ASCII property list, as `project.pbxproj` is written: strings,
/// arrays, dictionaries and `<hex>` data. Keys keep their order of appearance.
public enum OldStyleValue: Equatable, Sendable {
    case string(String)
    case array([OldStyleValue])
    case dictionary(OldStyleDictionary)
    case data([UInt8])

    /// The string, if this is one.
    public var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The array, if this is one.
    public var array: [OldStyleValue]? {
        if case .array(let items) = self { return items }
        return nil
    }

    /// The dictionary, if this is one.
    public var dictionary: OldStyleDictionary? {
        if case .dictionary(let dictionary) = self { return dictionary }
        return nil
    }
}

/// A dictionary of an old-style property list: unique string keys, in the order they appear.
public struct OldStyleDictionary: Equatable, Sendable {
    /// The keys in their order of appearance.
    public private(set) var keys: [String] = []
    private var values: [String: OldStyleValue] = [:]

    public init() {}

    /// The value for `key`, if any.
    public subscript(key: String) -> OldStyleValue? { values[key] }

    /// Adds `value` for a key not yet present; false (nothing changed) if the key is there already.
    mutating func insert(_ key: String, _ value: OldStyleValue) -> Bool {
        guard values[key] == nil else { return false }
        keys.append(key)
        values[key] = value
        return true
    }

    /// The string value for `key`, if it is a string.
    public func string(_ key: String) -> String? { values[key]?.string }
}

/// Why an old-style property list could not be read, and where: a byte offset and its line and column.
public struct OldStyleSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public var reason: String
    /// Byte offset in the file.
    public var offset: Int
    /// 1-based line.
    public var line: Int
    /// 1-based column, in bytes.
    public var column: Int

    public var description: String { "line \(line), column \(column): \(reason)" }
}
