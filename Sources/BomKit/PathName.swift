/// Rules for one path component, shared by the writer and the reader.
enum PathName {
    /// Why `name` cannot be a path component below the root, or nil when it can.
    static func problem<Name: Collection<UInt8>>(with name: Name, maxBytes: Int) -> String? {
        if name.isEmpty { return "empty name" }
        if name.count > maxBytes { return "name longer than \(maxBytes) bytes" }
        if name.elementsEqual([0x2E]) || name.elementsEqual([0x2E, 0x2E]) {
            return "name \".\" or \"..\" below the root"
        }
        if name.contains(0x2F) { return "name contains '/'" }
        if name.contains(0) { return "name contains NUL" }
        return nil
    }
}
