/// Structure-aware edits of the inflated TOC text: numbers, whole `<file>` elements, types, names,
/// DOCTYPEs, encodings, checksums, links and raw text. Each returns a short description, or nil when
/// the TOC offers nothing to edit (the caller then falls back to another mutation).
enum TOCMutator {
    /// Numbers that tend to matter in offsets, lengths and sizes.
    static let interestingNumbers = [
        "0", "1", "2", "20", "27", "28", "4095", "4096", "65535", "65536", "2147483647", "2147483648", "4294967295",
        "4294967296", "9223372036854775807", "9223372036854775808", "18446744073709551615", "18446744073709551616",
        "99999999999999999999999", "-1", "-0", "+1", " 1", "1 ", "0x10", "1e3", "010", "", "１", "1.5", "&#49;",
    ]

    /// Replaces the text of one `<offset>`, `<length>` or `<size>` (or `<id>`-like numbers) with a nearby or interesting value.
    static func number(_ toc: inout TOCText, _ random: inout SplitMix64) -> String? {
        let name = random.pick(["offset", "length", "size", "offset", "length", "size", "mode", "uid"])
        let leaves = toc.leaves(name)
        guard !leaves.isEmpty else { return nil }
        let leaf = random.pick(leaves)
        let current = ByteSearch.decimal(toc.bytes, leaf.content) ?? 0
        let replacement: String
        switch random.below(6) {
        case 0: replacement = String(current &+ UInt64(random.inRange(1...3)))
        case 1: replacement = String(current &- UInt64(random.inRange(1...3)))
        case 2: replacement = String(current &* 2 &+ UInt64(random.below(2)))
        case 3:
            // Another number of the same kind: aliasing ranges, duplicate sizes.
            let other = random.pick(leaves)
            replacement = String(decoding: toc.bytes[other.content], as: UTF8.self)
        default: replacement = random.pick(interestingNumbers)
        }
        toc.bytes.replaceSubrange(leaf.content, with: Array(replacement.utf8))
        return "<\(name)> \(current) -> \(replacement)"
    }

    /// Duplicates one `<file>` element next to itself (same id, same name, same data range).
    static func duplicateFile(_ toc: inout TOCText, _ random: inout SplitMix64) -> String? {
        let files = toc.fileElements()
        guard !files.isEmpty else { return nil }
        let file = random.pick(files)
        let copy = Array(toc.bytes[file])
        toc.bytes.insert(contentsOf: copy, at: random.chance(1, in: 2) ? file.upperBound : file.lowerBound)
        return "duplicated a <file> of \(copy.count) bytes"
    }

    /// Deletes one `<file>` element (its children with it).
    static func deleteFile(_ toc: inout TOCText, _ random: inout SplitMix64) -> String? {
        let files = toc.fileElements()
        guard !files.isEmpty else { return nil }
        let file = random.pick(files)
        toc.bytes.removeSubrange(file)
        return "deleted a <file> of \(file.count) bytes"
    }

    /// Moves one `<file>` element into another (or out to the top level).
    static func moveFile(_ toc: inout TOCText, _ random: inout SplitMix64) -> String? {
        let files = toc.fileElements()
        guard files.count >= 2 else { return nil }
        let moved = random.pick(files)
        let copy = Array(toc.bytes[moved])
        toc.bytes.removeSubrange(moved)
        let targets = TOCText(bytes: toc.bytes).leaves("name")
        guard !targets.isEmpty else { return nil }
        let target = random.pick(targets)
        toc.bytes.insert(contentsOf: copy, at: target.whole.upperBound)
        return "moved a <file> after another <name>"
    }

    /// Changes one `<type>`.
    static func type(_ toc: inout TOCText, _ random: inout SplitMix64) -> String? {
        let leaves = toc.leaves("type")
        guard !leaves.isEmpty else { return nil }
        let leaf = random.pick(leaves)
        let replacement = random.pick([
            "file", "directory", "symlink", "hardlink", "fifo", "character special",
            "block special", "socket", "whiteout", "", "FILE", "file ", "door",
        ])
        toc.bytes.replaceSubrange(leaf.content, with: Array(replacement.utf8))
        return "<type> -> \"\(replacement)\""
    }

    /// Names that break path rules.
    static let hostileNames = [
        "", ".", "..", "../escape", "a/b", "/abs", "\\\\server", "Contents", "ContentInfo.plist", "Payload", "Bom",
        "Distribution", "x\u{202E}gnp.exe", "caf\u{00E9}", "cafe\u{0301}", "README.TXT", "evil.app", "Lib.framework",
        "tool.dylib", ".DS_Store", "._x", "__MACOSX", "&#0;", "&#x1;", "&amp;", "&lt;", "<![CDATA[x]]>", "a\tb",
        String(repeating: "A", count: 256), String(repeating: "dir/", count: 300), "\u{FEFF}x", "\u{00A0}",
    ]

    /// Changes one `<name>`.
    static func name(_ toc: inout TOCText, _ random: inout SplitMix64) -> String? {
        let leaves = toc.leaves("name")
        guard !leaves.isEmpty else { return nil }
        let leaf = random.pick(leaves)
        let replacement: [UInt8]
        if random.chance(1, in: 4) {
            replacement = Array(toc.bytes[random.pick(leaves).content])
        } else {
            replacement = Array(random.pick(hostileNames).utf8)
        }
        toc.bytes.replaceSubrange(leaf.content, with: replacement)
        return "<name> -> \"\(String(decoding: replacement.prefix(40), as: UTF8.self))\""
    }

    /// DOCTYPEs, from harmless to hostile.
    static let doctypes = [
        "<!DOCTYPE xar>",
        "<!DOCTYPE xar [<!ENTITY e \"x\">]>",
        "<!DOCTYPE xar [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\"><!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;\"><!ENTITY d \"&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;\">]>",
        "<!DOCTYPE xar SYSTEM \"file:///etc/passwd\">",
        "<!DOCTYPE xar SYSTEM \"http://127.0.0.1:9/x.dtd\">",
        "<!DOCTYPE xar [<!ENTITY x SYSTEM \"file:///etc/hostname\">]>",
        "<!DOCTYPE xar PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">",
    ]

    /// Inserts a DOCTYPE after the XML declaration (and, sometimes, an entity reference in a name).
    static func doctype(_ toc: inout TOCText, _ random: inout SplitMix64) -> String? {
        let doctype = random.pick(doctypes)
        let declarationEnd = ByteSearch.find(Array("?>".utf8), in: toc.bytes).map { $0 + 2 } ?? 0
        toc.bytes.insert(contentsOf: Array(doctype.utf8), at: declarationEnd)
        if random.chance(1, in: 2), let leaf = TOCText(bytes: toc.bytes).leaves("name").first {
            toc.bytes.replaceSubrange(leaf.content, with: Array(random.pick(["&e;", "&d;", "&x;"]).utf8))
        }
        return "inserted \(doctype.prefix(40))"
    }

    /// Changes one `<encoding style="…">`.
    static func encoding(_ toc: inout TOCText, _ random: inout SplitMix64) -> String? {
        let leaves = toc.leaves("encoding")
        guard !leaves.isEmpty else { return nil }
        let leaf = random.pick(leaves)
        let style = random.pick([
            "application/octet-stream", "application/x-gzip", "application/x-bzip2", "application/x-lzma",
            "application/x-xz", "application/zlib", "", "APPLICATION/X-GZIP", "application/x-gzip ",
        ])
        let replacement = random.chance(1, in: 8) ? "<encoding/>" : "<encoding style=\"\(style)\"/>"
        toc.bytes.replaceSubrange(leaf.whole, with: Array(replacement.utf8))
        return "encoding -> \(replacement)"
    }

    /// Changes the TOC checksum or an entry checksum: style, offset, size, digest text; removes or repeats one.
    static func checksum(_ toc: inout TOCText, _ random: inout SplitMix64) -> String? {
        switch random.below(5) {
        case 0:
            guard let leaf = toc.tocChecksum() else { return nil }
            let style = random.pick(["sha1", "md5", "sha256", "sha512", "none", "SHA1", "sha-1", ""])
            toc.bytes.replaceSubrange(leaf.attributes, with: Array(" style=\"\(style)\"".utf8))
            return "TOC checksum style -> \(style)"
        case 1:
            guard let leaf = toc.tocChecksum() else { return nil }
            if random.chance(1, in: 2) {
                toc.bytes.removeSubrange(leaf.whole)
                return "removed the TOC <checksum>"
            }
            toc.bytes.insert(contentsOf: Array(toc.bytes[leaf.whole]), at: leaf.whole.upperBound)
            return "repeated the TOC <checksum>"
        case 2:
            let name = random.pick(["archived-checksum", "extracted-checksum"])
            let leaves = toc.leaves(name)
            guard !leaves.isEmpty else { return nil }
            let leaf = random.pick(leaves)
            if random.chance(1, in: 3) {
                toc.bytes.removeSubrange(leaf.whole)
                return "removed an <\(name)>"
            }
            let digest = random.pick([
                "", "00", "zz", String(repeating: "0", count: 40), String(repeating: "f", count: 64),
                String(repeating: "a", count: 41), "DA39A3EE5E6B4B0D3255BFEF95601890AFD80709",
            ])
            toc.bytes.replaceSubrange(leaf.content, with: Array(digest.utf8))
            return "<\(name)> -> \(digest.prefix(12))"
        case 3:
            let leaves = toc.leaves("extracted-checksum")
            guard let leaf = leaves.first else { return nil }
            toc.bytes.replaceSubrange(
                leaf.whole.lowerBound..<(leaf.whole.lowerBound + 10), with: Array("<unarchived".utf8))
            if let end = ByteSearch.find(
                Array("</extracted-checksum>".utf8), in: toc.bytes, from: leaf.whole.lowerBound)
            {
                toc.bytes.replaceSubrange(end..<(end + 11), with: Array("</unarchived".utf8))
            }
            return "extracted-checksum renamed unarchived-checksum"
        default:
            let name = random.pick(["archived-checksum", "extracted-checksum"])
            guard let leaf = toc.leaves(name).first else { return nil }
            let style = random.pick(["md5", "sha256", "sha512", "none", "crc32", ""])
            toc.bytes.replaceSubrange(leaf.attributes, with: Array(" style=\"\(style)\"".utf8))
            return "<\(name)> style -> \(style)"
        }
    }

    /// Link targets that escape, loop or are empty.
    static let hostileTargets = [
        "", ".", "..", "../..", "../../etc/passwd", "/etc/passwd", "link.txt", "Contents/..", "data/../../..",
        "self", "a//b", "./././x", String(repeating: "../", count: 200), "data/up",
    ]

    /// Changes a `<link>` target or type, or adds a `<link>` to an entry.
    static func link(_ toc: inout TOCText, _ random: inout SplitMix64) -> String? {
        let leaves = toc.leaves("link")
        let target = random.pick(hostileTargets)
        if leaves.isEmpty || random.chance(1, in: 3) {
            let names = toc.leaves("name")
            guard !names.isEmpty else { return nil }
            let place = random.pick(names)
            let type = random.pick(["file", "directory", "broken", ""])
            let element = "<link type=\"\(type)\">\(target)</link>"
            toc.bytes.insert(contentsOf: Array(element.utf8), at: place.whole.upperBound)
            if random.chance(1, in: 2) {
                toc.bytes.insert(contentsOf: Array(element.utf8), at: place.whole.upperBound)
            }
            return "added \(element.prefix(60))"
        }
        let leaf = random.pick(leaves)
        if random.chance(1, in: 4) {
            toc.bytes.replaceSubrange(
                leaf.attributes, with: Array(" type=\"\(random.pick(["file", "directory", "broken", "hard"]))\"".utf8))
            return "<link> type changed"
        }
        toc.bytes.replaceSubrange(leaf.content, with: Array(target.utf8))
        return "<link> -> \"\(target.prefix(40))\""
    }

    /// Raw text edits: delete, repeat or swap a span, insert markup, flip a byte, cut the text.
    static func text(_ toc: inout TOCText, _ random: inout SplitMix64) -> String? {
        guard toc.bytes.count > 8 else { return nil }
        let count = toc.bytes.count
        let start = random.below(count)
        let length = min(count - start, random.inRange(1...64))
        switch random.below(7) {
        case 0:
            toc.bytes.removeSubrange(start..<(start + length))
            return "deleted \(length) bytes of TOC text at \(start)"
        case 1:
            toc.bytes.insert(contentsOf: Array(toc.bytes[start..<(start + length)]), at: start)
            return "repeated \(length) bytes of TOC text at \(start)"
        case 2:
            let snippet = random.pick([
                "<file id=\"1\">", "</file>", "<data>", "</data>", "<![CDATA[", "]]>", "<!-- ", " -->",
                "&", "&#0;", "&#xD800;", "<?pi x?>", "\u{0}", "\u{FFFF}", "\u{1}", "<x:y xmlns:x=\"u\"/>",
                "<ea><name>n</name></ea>", "<flags><UserImmutable/></flags>", "\u{FEFF}", "\r\n",
            ])
            toc.bytes.insert(contentsOf: Array(snippet.utf8), at: start)
            return "inserted \(snippet.debugDescription) at \(start)"
        case 3:
            toc.bytes[start] ^= UInt8(1 << random.below(8))
            return "flipped a bit of TOC text at \(start)"
        case 4:
            toc.bytes.removeSubrange(random.below(count)..<count)
            return "cut the TOC text short"
        case 5:
            // Change the encoding declaration (or remove it).
            guard let end = ByteSearch.find(Array("?>".utf8), in: toc.bytes) else { return nil }
            let declaration = random.pick([
                "<?xml version=\"1.0\" encoding=\"UTF-16\"?>", "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>",
                "<?xml version=\"1.1\"?>", "<?xml version=\"2.0\"?>", "", "<?xml version=\"1.0\" encoding=\"EBCDIC\"?>",
                "<?xml version=\"1.0\" standalone=\"no\"?>",
            ])
            toc.bytes.replaceSubrange(0..<(end + 2), with: Array(declaration.utf8))
            return "XML declaration -> \(declaration.debugDescription)"
        default:
            // A deep nest, bounded: tests depth limits without giant inputs.
            let depth = random.pick([100, 300, 3000])
            let nest = String(repeating: "<d>", count: depth) + String(repeating: "</d>", count: depth)
            guard let tocStart = ByteSearch.find(Array("<toc>".utf8), in: toc.bytes) else { return nil }
            toc.bytes.insert(contentsOf: Array(nest.utf8), at: tocStart + 5)
            return "inserted \(depth) nested elements"
        }
    }
}
