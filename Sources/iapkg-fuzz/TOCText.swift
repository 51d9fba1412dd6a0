/// Finds elements in a xar TOC's XML text, as byte ranges, so mutators can edit the text in place.
/// Deliberately naive (no XML parser): it must keep working on text that is already broken.
struct TOCText {
    /// One leaf element `<name attrs>content</name>`.
    struct Leaf {
        /// From `<` of the start tag to `>` of the end tag, inclusive.
        var whole: Range<Int>
        /// The start tag's attributes text (between the name and `>`).
        var attributes: Range<Int>
        /// The text between the tags.
        var content: Range<Int>
    }

    /// The XML bytes.
    var bytes: [UInt8]

    /// Every leaf element called `name` in `bytes[within]` (no nesting of the same name), at most `limit`.
    func leaves(_ name: String, within: Range<Int>? = nil, limit: Int = 4096) -> [Leaf] {
        let scope = within ?? 0..<bytes.count
        let open = Array("<\(name)".utf8)
        let close = Array("</\(name)>".utf8)
        var found: [Leaf] = []
        var index = scope.lowerBound
        while found.count < limit, let start = ByteSearch.find(open, in: bytes, from: index, before: scope.upperBound) {
            index = start + open.count
            guard index < bytes.count, bytes[index] == 0x3E || bytes[index] == 0x20 || bytes[index] == 0x2F else {
                continue
            }
            guard let tagEnd = ByteSearch.find([0x3E], in: bytes, from: index, before: scope.upperBound) else { break }
            if bytes[tagEnd - 1] == 0x2F {
                // An empty element <name .../>.
                found.append(
                    Leaf(whole: start..<(tagEnd + 1), attributes: index..<(tagEnd - 1), content: tagEnd..<tagEnd))
                index = tagEnd + 1
                continue
            }
            guard let end = ByteSearch.find(close, in: bytes, from: tagEnd + 1, before: scope.upperBound) else { break }
            found.append(
                Leaf(whole: start..<(end + close.count), attributes: index..<tagEnd, content: (tagEnd + 1)..<end))
            index = end + close.count
        }
        return found
    }

    /// Every `<file …>…</file>` element (nested ones included), matched by depth; at most `limit`.
    func fileElements(limit: Int = 4096) -> [Range<Int>] {
        let open = Array("<file".utf8)
        let close = Array("</file>".utf8)
        var starts: [Int] = []
        var found: [Range<Int>] = []
        var index = 0
        while found.count < limit {
            let nextOpen = ByteSearch.find(open, in: bytes, from: index)
            let nextClose = ByteSearch.find(close, in: bytes, from: index)
            guard let closeAt = nextClose else { break }
            if let openAt = nextOpen, openAt < closeAt {
                let after = openAt + open.count
                if after < bytes.count, bytes[after] == 0x20 || bytes[after] == 0x3E {
                    starts.append(openAt)
                }
                index = after
            } else {
                if let start = starts.popLast() { found.append(start..<(closeAt + close.count)) }
                index = closeAt + close.count
            }
        }
        return found
    }

    /// `<file>` elements that hold no other `<file>`: the entries that carry data.
    func leafFileElements() -> [Range<Int>] {
        let open = Array("<file".utf8)
        return fileElements().filter { range in
            ByteSearch.find(open, in: bytes, from: range.lowerBound + 1, before: range.upperBound) == nil
        }
    }

    /// The TOC's own `<checksum>` element (the first one, before any `<file>`).
    func tocChecksum() -> Leaf? {
        let firstFile = ByteSearch.find(Array("<file".utf8), in: bytes) ?? bytes.count
        return leaves("checksum", within: 0..<firstFile, limit: 1).first
    }

    /// The value of attribute `name` inside `range` (e.g. a leaf's attributes).
    func attribute(_ name: String, in range: Range<Int>) -> String? {
        let key = Array("\(name)=\"".utf8)
        guard let at = ByteSearch.find(key, in: bytes, from: range.lowerBound, before: range.upperBound) else {
            return nil
        }
        let start = at + key.count
        guard let end = ByteSearch.find([0x22], in: bytes, from: start, before: range.upperBound) else { return nil }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// The text of leaf `name` inside `range`.
    func text(of name: String, in range: Range<Int>) -> String? {
        guard let leaf = leaves(name, within: range, limit: 1).first else { return nil }
        return String(decoding: bytes[leaf.content], as: UTF8.self)
    }
}
