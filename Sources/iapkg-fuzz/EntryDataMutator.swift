import IAPCore

/// Rewrites one entry's data behind the checksums: decodes it, lets a content mutation change it,
/// re-encodes it, appends it to the heap and points the entry's `<data>` (offset, length, size and
/// both checksums) at it. The archive stays self-consistent, so the reader's gates pass and the
/// Bom, Payload, plist and executable checks see the damage.
enum EntryDataMutator {
    /// One data-carrying entry found in the TOC text.
    struct Entry {
        /// The `<file>` element.
        var element: Range<Int>
        /// The entry's `<name>`.
        var name: String
        /// The `<data>` element inside it.
        var data: Range<Int>
        var offset: UInt64
        var length: UInt64
        var encodingStyle: String
    }

    /// Every leaf entry with a well-formed `<data>`.
    static func entries(_ toc: TOCText) -> [Entry] {
        toc.leafFileElements().compactMap { element in
            guard let data = toc.leaves("data", within: element, limit: 1).first,
                let offsetText = toc.text(of: "offset", in: data.content), let offset = UInt64(offsetText),
                let lengthText = toc.text(of: "length", in: data.content), let length = UInt64(lengthText)
            else { return nil }
            let encoding = toc.leaves("encoding", within: data.content, limit: 1).first
            let style = encoding.flatMap { toc.attribute("style", in: $0.attributes) } ?? "application/octet-stream"
            return Entry(
                element: element, name: toc.text(of: "name", in: element) ?? "", data: data.whole,
                offset: offset, length: length, encodingStyle: style)
        }
    }

    /// Applies `change` to the decoded data of one entry (chosen by `choose`) and rewrites it. Returns
    /// the description `change` gave, or nil when no entry decodes or `change` declined.
    static func mutate(
        _ parts: inout XarParts, _ random: inout SplitMix64, choose: ([Entry], inout SplitMix64) -> Entry?,
        change: (inout [UInt8], String, inout SplitMix64) -> String?
    ) -> String? {
        let toc = TOCText(bytes: parts.tocXML)
        guard let entry = choose(entries(toc), &random) else { return nil }
        guard entry.offset <= UInt64(parts.heap.count), entry.length <= UInt64(parts.heap.count) - entry.offset else {
            return nil
        }
        let stored = Array(parts.heap[Int(entry.offset)..<Int(entry.offset + entry.length)])
        let zlib = entry.encodingStyle.contains("gzip")
        guard zlib || entry.encodingStyle.contains("octet-stream") else { return nil }
        guard var decoded = zlib ? XarSurgery.inflate(stored, format: .zlib) : stored else { return nil }
        guard let description = change(&decoded, entry.name, &random) else { return nil }
        let encoded = zlib ? XarSurgery.deflate(decoded, format: .zlib, level: Int32(random.inRange(1...9))) : decoded
        let newOffset = UInt64(parts.heap.count)
        parts.heap += encoded
        var text = TOCText(bytes: parts.tocXML)
        rewriteData(&text, data: entry.data, offset: newOffset, stored: encoded, decoded: decoded)
        parts.tocXML = text.bytes
        return "\(entry.name): \(description)"
    }

    /// Replaces the numbers and digests inside `<data>` at `data` (from the end backwards so ranges stay valid).
    static func rewriteData(_ toc: inout TOCText, data: Range<Int>, offset: UInt64, stored: [UInt8], decoded: [UInt8]) {
        var edits: [(Range<Int>, [UInt8])] = []
        func set(_ name: String, _ value: [UInt8]) {
            if let leaf = toc.leaves(name, within: data, limit: 1).first { edits.append((leaf.content, value)) }
        }
        func digest(_ name: String, of bytes: [UInt8]) {
            guard let leaf = toc.leaves(name, within: data, limit: 1).first else { return }
            let algorithm = DigestAlgorithm(xarStyle: toc.attribute("style", in: leaf.attributes) ?? "") ?? .sha1
            edits.append((leaf.content, ByteSearch.hex(DigestHasher.digest(algorithm, of: bytes))))
        }
        set("offset", Array(String(offset).utf8))
        set("length", Array(String(stored.count).utf8))
        set("size", Array(String(decoded.count).utf8))
        digest("archived-checksum", of: stored)
        digest("extracted-checksum", of: decoded)
        digest("unarchived-checksum", of: decoded)
        for (range, value) in edits.sorted(by: { $0.0.lowerBound > $1.0.lowerBound }) {
            toc.bytes.replaceSubrange(range, with: value)
        }
    }
}
