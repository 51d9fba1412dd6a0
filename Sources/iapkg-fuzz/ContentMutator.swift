/// Mutations of one entry's decoded bytes: executable magics in disguise, property-list edits,
/// numbers in text, interesting binary fields (for the Bom), flips and cuts.
enum ContentMutator {
    /// Heads that the executable sniffer must catch (and two it must let through).
    static let executableHeads: [[UInt8]] = [
        [0xFE, 0xED, 0xFA, 0xCE], [0xFE, 0xED, 0xFA, 0xCF], [0xCE, 0xFA, 0xED, 0xFE], [0xCF, 0xFA, 0xED, 0xFE],
        [0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 2, 0, 0, 0, 7, 0, 0, 0, 3, 0, 0, 0, 0x40, 0, 0, 0, 0x10, 0, 0, 0, 0],
        [0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 0x34], [0xCA, 0xFE, 0xBA, 0xBF, 0, 0, 0, 1],
        [0xBE, 0xBA, 0xFE, 0xCA, 2, 0, 0, 0],
        [0xCA, 0xFE, 0xBA, 0xBE, 0xFF, 0xFF, 0xFF, 0xFF], [0x7F, 0x45, 0x4C, 0x46, 2, 1, 1], Array("MZ".utf8),
        Array("MZ".utf8) + Array(repeating: 0, count: 58) + [0x40, 0, 0, 0] + Array("PE".utf8) + [0, 0],
        Array("MZ".utf8) + Array(repeating: 0, count: 58) + [0xFF, 0xFF, 0xFF, 0x7F],
        [0, 0x61, 0x73, 0x6D, 1, 0, 0, 0],
        Array("#!/bin/sh\n".utf8), Array("!<arch>\n".utf8),
    ]

    /// Property-list edits that the ContentInfo rules must refuse (or accept) precisely.
    static let plistEdits: [(String, String)] = [
        ("<plist", "<!DOCTYPE plist [<!ENTITY x \"y\">]><plist"),
        ("<plist", "<!DOCTYPE plist SYSTEM \"file:///etc/passwd\"><plist"),
        ("<dict>", "<array>"), ("</dict>", "</array>"), ("<string>1.0</string>", "<string>1..0</string>"),
        ("<string>1.0</string>", "<string>99999999999999999999999.1</string>"),
        ("<string>1.0</string>", "<integer>1</integer>"),
        ("<string>1.0</string>", "<string>1.0.0.0.0</string>"), ("<string>1.0</string>", "<string></string>"),
        ("com.example.fuzz", "../../etc"), ("com.example.fuzz", ""),
        ("com.example.fuzz", String(repeating: "a", count: 101)),
        ("com.example.fuzz", "com.exa\u{0}mple"),
        ("<key>ContentVersion</key>", "<key>ContentVersion</key><string>2</string><key>ContentVersion</key>"),
        (
            "<dict>",
            "<dict><key>Folder</key><data>////</data><key>Nested</key><dict><key>a</key><real>1e999</real></dict>"
        ),
        ("</plist>", ""), ("<?xml", "\u{FEFF}<?xml"), ("UTF-8", "UTF-16"),
    ]

    /// Changes `bytes` (the decoded data of entry `name`); returns what it did.
    static func mutate(_ bytes: inout [UInt8], name: String, _ random: inout SplitMix64) -> String? {
        switch random.below(name == "ContentInfo.plist" ? 8 : 7) {
        case 0:
            let head = random.pick(executableHeads)
            if random.chance(1, in: 2) || bytes.count < head.count {
                bytes.insert(contentsOf: head, at: 0)
            } else {
                bytes.replaceSubrange(0..<head.count, with: head)
            }
            return "executable head \(String(decoding: ByteSearch.hex(Array(head.prefix(4))), as: UTF8.self))"
        case 1:
            guard !bytes.isEmpty else { return nil }
            let flips = random.inRange(1...8)
            for _ in 0..<flips { bytes[random.below(bytes.count)] ^= UInt8(1 << random.below(8)) }
            return "\(flips) bit flips"
        case 2:
            guard !bytes.isEmpty else { return nil }
            let cut = random.below(bytes.count)
            bytes.removeSubrange(cut...)
            return "cut at \(cut)"
        case 3:
            guard bytes.count >= 8 else { return nil }
            let offset = random.below(bytes.count - 3)
            let value = random.pick(ByteMutator.interesting32)
            for i in 0..<4 { bytes[offset + i] = UInt8(truncatingIfNeeded: value >> (24 - 8 * i)) }
            return "32-bit field at \(offset) -> 0x\(String(value, radix: 16))"
        case 4:
            // A run of digits in text (numberOfFiles, installKBytes, version) replaced.
            let digitStarts = bytes.indices.filter {
                (0x30...0x39).contains(bytes[$0]) && ($0 == 0 || !(0x30...0x39).contains(bytes[$0 - 1]))
            }
            guard !digitStarts.isEmpty else { return nil }
            let start = random.pick(digitStarts)
            var end = start
            while end < bytes.count, (0x30...0x39).contains(bytes[end]) { end += 1 }
            let replacement = random.pick(TOCMutator.interestingNumbers)
            bytes.replaceSubrange(start..<end, with: Array(replacement.utf8))
            return "digits at \(start) -> \(replacement)"
        case 5:
            guard !bytes.isEmpty else { return nil }
            let start = random.below(bytes.count)
            let length = min(bytes.count - start, random.inRange(1...512))
            if random.chance(1, in: 2) {
                bytes.insert(contentsOf: Array(bytes[start..<(start + length)]), at: start)
                return "repeated \(length) bytes at \(start)"
            }
            bytes.removeSubrange(start..<(start + length))
            return "deleted \(length) bytes at \(start)"
        case 6:
            if random.chance(1, in: 4) {
                bytes =
                    Array("bplist00".utf8)
                    + (0..<random.inRange(0...64)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                return "replaced by a broken binary plist"
            }
            bytes = []
            return "emptied"
        default:
            let (find, replace) = random.pick(plistEdits)
            guard let at = ByteSearch.find(Array(find.utf8), in: bytes) else { return nil }
            bytes.replaceSubrange(at..<(at + find.utf8.count), with: Array(replace.utf8))
            return "plist \(find.prefix(20)) -> \(replace.prefix(30))"
        }
    }
}
