/// A Bom's paths as compact nodes, checked as strictly as ``BomReader/read(_:limits:)`` checks them:
/// names and link targets stay in the Bom's bytes (no String per path, and a node is plain bytes to
/// copy), and every node's children lie side by side in stored order, sorted by name, so a
/// depth-first walk lists the paths in byte order without a sort.
package struct BomTree: Sendable {
    /// One path record and where its name lies.
    package struct Node: Sendable {
        /// What the path is.
        package var kind: BomEntry.Kind
        /// Full `st_mode` including the type bits, as stored.
        package var mode: UInt16
        /// Owner user id.
        package var uid: UInt32
        /// Owner group id.
        package var gid: UInt32
        /// Modification time in seconds since 1970.
        package var modificationTime: UInt32
        /// Files: byte size (Size64 applied); symlinks: the target's length; directories: as stored.
        package var size: UInt64
        /// The record's checksum-or-device field.
        var checksumOrDevice: UInt32
        /// Where a symlink's target (checked UTF-8) lies in `bytes`; length 0 for everything else
        /// (a target has at least one byte). ``BomTree/linkTarget(of:)`` makes it a String.
        var linkTargetStart: UInt32 = 0
        var linkTargetLength: UInt32 = 0
        /// The parent's index in `nodes`; -1 for the root.
        var parent: Int32 = -1
        /// Where the name lies in `bytes`.
        var nameStart: UInt32
        var nameLength: UInt32
        /// The record block, for errors and Size64.
        var recordBlock: UInt32
        /// The path id and the parent's id, as stored.
        var id: UInt32
        var parentID: UInt32
        /// The link target is not UTF-8 (reported once the tree is checked, as the reader always did).
        var badLinkTarget = false

        /// The POSIX `cksum` CRC of a file's bytes or of a link's target; 0 for devices.
        package var checksum: UInt32 { kind == .device ? 0 : checksumOrDevice }
        /// A device's number; nil for everything else.
        package var device: UInt32? { kind == .device ? checksumOrDevice : nil }
        /// The tree's root ("."), the one node without a parent.
        package var isRoot: Bool { parent < 0 }
        /// Whether the node has a link target (only symlinks do).
        package var hasLinkTarget: Bool { linkTargetLength > 0 }
    }

    /// The Bom itself: names point into it.
    let bytes: [UInt8]
    /// Every path record in stored order: by (parent id, name), the root "." first.
    package let nodes: [Node]
    /// The root's index in `nodes`.
    let root: Int
    /// The longest path below the root, in bytes ("a/b", without "./").
    let longestPath: Int
    /// Children of node i: `nodes[childStart[i]..<childEnd[i]]` (empty when both are 0).
    let childStart: [Int32]
    let childEnd: [Int32]

    /// Calls `body` for every path below the root, depth-first, each folder's entries right after
    /// it, siblings in byte order of their names. `path` is relative to the root ("Contents/a.png",
    /// without "./") and valid only during the call.
    package func forEachDepthFirst(
        _ body: (_ path: UnsafeBufferPointer<UInt8>, _ node: Node) throws -> Void
    ) rethrows {
        try forEachIndexDepthFirst { path, index in try body(path, nodes[index]) }
    }

    /// A symlink's target; nil for every other node.
    package func linkTarget(of node: Node) -> String? {
        guard node.hasLinkTarget else { return nil }
        let start = Int(node.linkTargetStart)
        return String(decoding: bytes[start..<start + Int(node.linkTargetLength)], as: UTF8.self)
    }

    /// ``forEachDepthFirst(_:)`` with each node's index in `nodes`.
    package func forEachIndexDepthFirst(
        _ body: (_ path: UnsafeBufferPointer<UInt8>, _ index: Int) throws -> Void
    ) rethrows {
        // Every path was measured when the tree was checked: one buffer holds the longest.
        let path = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: longestPath + 1)
        defer { path.deallocate() }
        // (next child, end of children, path length of the folder) per level.
        var stack: [(next: Int, end: Int, length: Int)] = [(Int(childStart[root]), Int(childEnd[root]), 0)]
        try bytes.withUnsafeBufferPointer { bytes in
            try nodes.withUnsafeBufferPointer { nodes in
                while let top = stack.last {
                    guard top.next < top.end else {
                        stack.removeLast()
                        continue
                    }
                    stack[stack.count - 1].next += 1
                    let node = nodes[top.next]
                    var length = top.length
                    if length > 0 {
                        path[length] = UInt8(ascii: "/")
                        length += 1
                    }
                    let name = UnsafeBufferPointer(
                        rebasing: bytes[Int(node.nameStart)..<Int(node.nameStart + node.nameLength)])
                    precondition(length + name.count <= path.count, "a path longer than the tree measured")
                    _ = UnsafeMutableBufferPointer(rebasing: path[length...]).initialize(fromContentsOf: name)
                    length += name.count
                    try body(UnsafeBufferPointer(rebasing: path[..<length]), top.next)
                    let first = Int(childStart[top.next])
                    let end = Int(childEnd[top.next])
                    if first < end { stack.append((first, end, length)) }
                }
            }
        }
    }

    /// "./a/b" for the node at `index` ("." for the root), made by climbing parents already linked.
    static func storedPath(_ index: Int, nodes: [Node], bytes: [UInt8]) -> String {
        var names: [String] = []
        var current = index
        while nodes[current].parent >= 0 {
            let node = nodes[current]
            let start = Int(node.nameStart)
            names.append(String(decoding: bytes[start..<start + Int(node.nameLength)], as: UTF8.self))
            current = Int(node.parent)
        }
        return (["."] + names.reversed()).joined(separator: "/")
    }
}
