/// Rules for an App Store product identifier (PackageFormat.md §3, §6): the folder a product gets
/// in every store, and the first path segment a server serves.
public enum ProductIdentifier {
    /// Longest identifier App Store Connect allows.
    public static let maxLength = 100

    /// Why `text` is not a usable product identifier, or nil if it is one.
    public static func problem(with text: String) -> String? {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { return "the product identifier is empty" }
        guard bytes.count <= maxLength else {
            return "the product identifier is \(bytes.count) characters; at most \(maxLength) are allowed"
        }
        func allowed(_ b: UInt8, first: Bool) -> Bool {
            switch b {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                true
            case UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"): !first
            default: false
            }
        }
        for (i, b) in bytes.enumerated() where !allowed(b, first: i == 0) {
            return i == 0
                ? "the product identifier must start with a letter or digit"
                : "the product identifier may hold only letters, digits, '.', '_' and '-' (found '\(String(decoding: [b], as: UTF8.self))' at character \(i + 1))"
        }
        if text.contains("..") { return "the product identifier must not contain '..'" }
        return nil
    }

    /// True when `text` is a valid product identifier.
    public static func isValid(_ text: String) -> Bool { problem(with: text) == nil }
}
