/// One property-list value, as read from or written to a plist. Dictionaries keep their key order.
package indirect enum PropertyListValue: Sendable {
    /// `<string>` text.
    case string(String)
    /// `<integer>`, a signed 64-bit number.
    case integer(Int64)
    /// `<real>`, a double.
    case real(Double)
    /// `<true/>` or `<false/>`.
    case bool(Bool)
    /// `<date>`, as ISO-8601 text in Apple's form `YYYY-MM-DDTHH:MM:SSZ` (UTC, whole seconds).
    case date(String)
    /// `<data>`, the decoded bytes.
    case data([UInt8])
    /// `<array>`, in order.
    case array([PropertyListValue])
    /// `<dict>`, its entries in document order; keys are unique.
    case dictionary([(key: String, value: PropertyListValue)])

    /// The value stored under `key` when this is a dictionary; nil otherwise or when the key is absent.
    package func value(forKey key: String) -> PropertyListValue? {
        guard case .dictionary(let entries) = self else { return nil }
        return entries.first { $0.key == key }?.value
    }

    /// The text when this is a string; nil otherwise.
    package var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// A short name of the value's type, as its XML element is called (`string`, `dict`, ...).
    package var typeName: String {
        switch self {
        case .string: "string"
        case .integer: "integer"
        case .real: "real"
        case .bool(let flag): flag ? "true" : "false"
        case .date: "date"
        case .data: "data"
        case .array: "array"
        case .dictionary: "dict"
        }
    }
}

extension PropertyListValue: Equatable {
    /// Structural equality; dictionaries compare in order, and two NaN reals are equal.
    package static func == (lhs: PropertyListValue, rhs: PropertyListValue) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): a == b
        case (.integer(let a), .integer(let b)): a == b
        case (.real(let a), .real(let b)): a == b || (a.isNaN && b.isNaN)
        case (.bool(let a), .bool(let b)): a == b
        case (.date(let a), .date(let b)): a == b
        case (.data(let a), .data(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.dictionary(let a), .dictionary(let b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }
}
