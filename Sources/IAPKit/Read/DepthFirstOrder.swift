/// The order inspect lists entries in: depth-first, names in byte order ('/' sorts before every
/// other byte, so a folder's entries follow it before any sibling whose name extends its own).
enum DepthFirstOrder {
    /// `files` sorted by path so; equal paths keep their order.
    static func sorted(_ files: [InspectReport.File]) -> [InspectReport.File] {
        // Every key in one buffer ('/' made 0), compared in place: no array per entry.
        var keys: [UInt8] = []
        var starts: [Int] = [0]
        starts.reserveCapacity(files.count + 1)
        for file in files {
            keys.append(contentsOf: file.path.utf8)
            starts.append(keys.count)
        }
        keys.withUnsafeMutableBufferPointer { keys in
            for index in keys.indices where keys[index] == UInt8(ascii: "/") { keys[index] = 0 }
        }
        let order = keys.withUnsafeBufferPointer { keys in
            starts.withUnsafeBufferPointer { starts in
                files.indices.sorted { left, right in
                    precedes(
                        UnsafeBufferPointer(rebasing: keys[starts[left]..<starts[left + 1]]),
                        UnsafeBufferPointer(rebasing: keys[starts[right]..<starts[right + 1]]))
                }
            }
        }
        return order.map { files[$0] }
    }

    /// Byte-wise lexicographic order; a proper prefix comes first.
    private static func precedes(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Bool {
        let common = min(left.count, right.count)
        var index = 0
        while index < common {
            let a = left[index]
            let b = right[index]
            if a != b { return a < b }
            index += 1
        }
        return left.count < right.count
    }
}

/// Permission bits as inspect shows them ("644"), each distinct value formatted once.
struct ModeText {
    private var made: [UInt32: String] = [:]

    /// The octal text of `bits`.
    mutating func text(_ bits: UInt32) -> String {
        if let known = made[bits] { return known }
        let text = String(bits, radix: 8)
        made[bits] = text
        return text
    }
}
