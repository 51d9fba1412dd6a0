/// A ContentVersion: integers separated by periods ("1.0", "2.10.3"), compared numerically.
public struct ContentVersion: Comparable, Hashable, Sendable, CustomStringConvertible, Codable {
    /// At most this many components (PackageFormat.md §6).
    public static let maxComponents = 4

    /// The version exactly as written.
    public let text: String
    /// Its numeric components.
    public let components: [UInt64]

    /// Parses `text`; nil unless it matches `^[0-9]+(\.[0-9]+)*$` with at most four components that fit 64 bits.
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard !parts.isEmpty, parts.count <= Self.maxComponents else { return nil }
        var numbers: [UInt64] = []
        for part in parts {
            guard !part.isEmpty, part.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                let value = UInt64(part)
            else { return nil }
            numbers.append(value)
        }
        self.text = text
        self.components = numbers
    }

    private init(components: [UInt64]) {
        self.components = components
        self.text = components.map(String.init).joined(separator: ".")
    }

    public var description: String { text }

    /// Numeric order; missing components count as 0, so `1.0 == 1`.
    public static func < (a: ContentVersion, b: ContentVersion) -> Bool {
        compare(a, b) < 0
    }

    public static func == (a: ContentVersion, b: ContentVersion) -> Bool { compare(a, b) == 0 }

    public func hash(into hasher: inout Hasher) {
        var trimmed = components
        while trimmed.last == 0 { trimmed.removeLast() }
        hasher.combine(trimmed)
    }

    /// -1, 0 or 1 as `a` is lower than, equal to or higher than `b`.
    public static func compare(_ a: ContentVersion, _ b: ContentVersion) -> Int {
        for i in 0..<max(a.components.count, b.components.count) {
            let x = i < a.components.count ? a.components[i] : 0
            let y = i < b.components.count ? b.components[i] : 0
            if x != y { return x < y ? -1 : 1 }
        }
        return 0
    }

    /// Which part of a version a bump raises.
    public enum Part: String, Sendable, CaseIterable {
        case major, minor, patch
    }

    /// The next version: `major` 1.4 → 2.0, `minor` 1.9 → 1.10, `patch` 1.1 → 1.1.1.
    /// Nil if a component would overflow.
    public func bumped(_ part: Part) -> ContentVersion? {
        var c = components
        let index: Int
        switch part {
        case .major: index = 0
        case .minor: index = 1
        case .patch: index = 2
        }
        while c.count <= index { c.append(0) }
        guard c[index] < UInt64.max else { return nil }
        c[index] += 1
        for i in (index + 1)..<c.count { c[i] = 0 }
        if part == .major || part == .minor { c = Array(c.prefix(max(2, index + 1))) }
        return ContentVersion(components: c)
    }

    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let version = ContentVersion(text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "not a version: \(text)"))
        }
        self = version
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}
