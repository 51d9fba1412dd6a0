/// Rules for one path component, shared by the writer and the reader.
enum PathName {
    /// Why `name` cannot be a path component below the root, or nil when it can.
    static func problem<Name: Collection<UInt8>>(with name: Name, maxBytes: Int) -> String? {
        if let problem = name.withContiguousStorageIfAvailable({ problem(with: $0, maxBytes: maxBytes) }) {
            return problem
        }
        return problem(with: Array(name), maxBytes: maxBytes)
    }

    /// ``problem(with:maxBytes:)`` for bytes in memory: one pass over the name.
    static func problem(with name: UnsafeBufferPointer<UInt8>, maxBytes: Int) -> String? {
        if name.isEmpty { return "empty name" }
        if name.count > maxBytes { return "name longer than \(maxBytes) bytes" }
        if name.count <= 2 && name.allSatisfy({ $0 == 0x2E }) {
            return "name \".\" or \"..\" below the root"
        }
        var slash = false
        var nul = false
        for byte in name {
            slash = slash || byte == 0x2F
            nul = nul || byte == 0
        }
        if slash { return "name contains '/'" }
        if nul { return "name contains NUL" }
        return nil
    }
}
