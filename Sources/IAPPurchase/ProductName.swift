/// The product identifiers accepted in transactions and tokens: what App Store Connect allows
/// (letters, digits, `.`, `_`, `-`, at most 100 characters, starting with a letter or digit, no
/// `..`), so that one is always a single, harmless path component.
enum ProductName {
    /// True when `text` is such an identifier.
    static func isValid(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= 100, !text.contains("..") else { return false }
        for (index, byte) in bytes.enumerated() {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                continue
            case UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
                guard index > 0 else { return false }
            default:
                return false
            }
        }
        return true
    }
}
