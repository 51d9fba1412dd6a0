import IAPTestSupport

/// Tree packages whose files share heap ranges, as `xar --coalesce-heap` writes them.
extension ScratchFolder {
    /// A tree of `nodes` whose last file with data points at the heap range of the file with data
    /// before it (its own bytes, last in the heap, are dropped); `tweak` edits the last `<data>`.
    package func coalescedTree(
        _ name: String, _ nodes: [XarNode], tweak: @escaping (String) -> String = { $0 }
    ) throws -> String {
        let path = at(name + ".pkg")
        try HostileTree.write(nodes, to: path) { xar in
            var droppedBytes = 0
            xar.editTOC = { xml in
                let blocks = xml.components(separatedBy: "<data>")
                guard blocks.count >= 3 else { return xml }
                let (earlier, last) = (blocks[blocks.count - 2], blocks[blocks.count - 1])
                func field(_ name: String, _ block: String) -> String {
                    block.components(separatedBy: "<\(name)>")[1].components(separatedBy: "</\(name)>")[0]
                }
                droppedBytes = Int(field("length", last)) ?? 0
                var moved = last.replacingOccurrences(
                    of: "<offset>\(field("offset", last))</offset>",
                    with: "<offset>\(field("offset", earlier))</offset>")
                moved = moved.replacingOccurrences(
                    of: "<length>\(field("length", last))</length>",
                    with: "<length>\(field("length", earlier))</length>")
                return blocks.dropLast().joined(separator: "<data>") + "<data>" + tweak(moved)
            }
            xar.editHeap = { heap in Array(heap.dropLast(droppedBytes)) }
        }
        return path
    }

    /// A tree whose last file, `b.txt`, points at `a.txt`'s heap range, both holding `content`;
    /// `tweak` edits b's `<data>`.
    package func coalescedTree(
        _ name: String, content: [UInt8], tweak: @escaping (String) -> String = { $0 }
    ) throws -> String {
        try coalescedTree(
            name, HostileTree.nodes(contents: [.file("a.txt", content), .file("b.txt", content)]), tweak: tweak)
    }
}
