/// How the `content` target reads its input: a small text that describes a content folder and how
/// to package it, so that the fuzzer's edits change names, kinds, modes, link targets, data and the
/// ContentInfo.plist while the package around them stays well formed (valid checksums and heap).
///
/// Lines, separated by `\n`:
/// - `!OPTION [VALUE]`: `product` (the product-archive layout; default: a bare tree), `strict`,
///   `stored` (xar data stored, not zlib), `md5`, `sha256`, `sha512` (the xar digest), `nobom`,
///   `nopayload`, `nopackageinfo`, `nodist`, `noinfo` (leave that part out), `name NAME` (the
///   component's name), `max N` (`--max-unpacked-size`), `id ID` (`--product-id`), `newer V`
///   (`--newer-than`).
/// - `KIND[FLAGS][MODE] PATH[\tDATA[\tREPEAT]]`: an entry under the content root. KIND is `d`
///   (directory), `f` (file: DATA, REPEAT times) or `l` (symlink to DATA); FLAGS `B`, `P`, `X` leave
///   it out of the Bom, the Payload or the xar; MODE is octal (default 644 for files, 755 otherwise).
///   PATH and DATA take the escapes `\n`, `\t`, `\0`, `\\` and `\xHH`.
/// - `%%`: everything after this line is ContentInfo.plist, byte for byte (default: a valid one).
/// Other lines are ignored. Missing parent folders are added before their children.
struct ContentDescription: Equatable {
    /// One entry of the content folder.
    struct Entry: Equatable {
        enum Kind: Equatable { case directory, file, symlink }
        var kind: Kind
        /// The path under the content root, `/`-separated, as given (may be odd: the rules judge it).
        var path: String
        var mode: UInt16
        /// File data, or a link's target.
        var data: [UInt8] = []
        var inBom = true
        var inPayload = true
        var inXar = true
    }

    /// At most this many entries per input.
    static let maxEntries = 2048
    /// At most this many data bytes (after REPEAT) per input, so one input stays fast.
    static let maxDataBytes = 1 << 20

    var entries: [Entry] = []
    var options: Set<String> = []
    var values: [String: String] = [:]
    var contentInfo: [UInt8] = Array(ContentDescription.defaultContentInfo.utf8)

    /// A valid ContentInfo.plist, used when the input gives none.
    static let defaultContentInfo = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>IAPProductIdentifier</key><string>com.example.fuzz</string>\
        <key>ContentVersion</key><string>1.0</string></dict></plist>
        """

    init(_ input: [UInt8]) {
        var lines = input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)[...]
        var dataBytes = 0
        while let line = lines.popFirst() {
            if line.elementsEqual("%%".utf8) {
                contentInfo = Array(input[min(line.endIndex + 1, input.count)...])
                break
            }
            if line.first == UInt8(ascii: "!") {
                let words = line.dropFirst().split(separator: UInt8(ascii: " "), maxSplits: 1)
                guard let name = words.first.map({ String(decoding: $0, as: UTF8.self) }) else { continue }
                options.insert(name)
                if words.count > 1 { values[name] = String(decoding: words[1], as: UTF8.self) }
            } else if entries.count < Self.maxEntries, var entry = Self.entry(line) {
                let room = Self.maxDataBytes - dataBytes
                if entry.data.count > room { entry.data.removeLast(entry.data.count - room) }
                dataBytes += entry.data.count
                entries.append(entry)
            }
        }
        addMissingParents()
    }

    /// The entry a line describes, or nil when it describes none.
    static func entry(_ line: ArraySlice<UInt8>) -> Entry? {
        guard let space = line.firstIndex(of: UInt8(ascii: " ")), let letter = line.first else { return nil }
        let kind: Entry.Kind
        switch letter {
        case UInt8(ascii: "d"): kind = .directory
        case UInt8(ascii: "f"): kind = .file
        case UInt8(ascii: "l"): kind = .symlink
        default: return nil
        }
        var entry = Entry(kind: kind, path: "", mode: kind == .file ? 0o644 : 0o755)
        var mode: UInt16?
        for byte in line[(line.startIndex + 1)..<space] {
            switch byte {
            case UInt8(ascii: "B"): entry.inBom = false
            case UInt8(ascii: "P"): entry.inPayload = false
            case UInt8(ascii: "X"): entry.inXar = false
            case UInt8(ascii: "0")...UInt8(ascii: "7"): mode = ((mode ?? 0) << 3 | UInt16(byte - 48)) & 0o7777
            default: return nil
            }
        }
        if let mode { entry.mode = mode }
        let fields = line[(space + 1)...].split(separator: 9, maxSplits: 2, omittingEmptySubsequences: false)
        entry.path = String(decoding: unescape(fields[0]), as: UTF8.self)
        if fields.count > 1 {
            let piece = unescape(fields[1])
            let repeats = fields.count > 2 ? min(Int(String(decoding: fields[2], as: UTF8.self)) ?? 1, maxDataBytes) : 1
            if kind == .file && repeats > 1 && !piece.isEmpty {
                let count = min(repeats, maxDataBytes / piece.count + 1)
                entry.data = Array([[UInt8]](repeating: piece, count: count).joined())
            } else {
                entry.data = piece
            }
        }
        return entry
    }

    /// The bytes of `text` with its escapes replaced.
    static func unescape(_ text: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let byte = text[index]
            index += 1
            guard byte == UInt8(ascii: "\\"), index < text.endIndex else {
                out.append(byte)
                continue
            }
            let escape = text[index]
            index += 1
            switch escape {
            case UInt8(ascii: "n"): out.append(10)
            case UInt8(ascii: "t"): out.append(9)
            case UInt8(ascii: "0"): out.append(0)
            case UInt8(ascii: "x") where index + 1 < text.endIndex:
                if let value = UInt8(String(decoding: text[index...(index + 1)], as: UTF8.self), radix: 16) {
                    out.append(value)
                    index += 2
                } else {
                    out.append(escape)
                }
            default: out.append(escape)
            }
        }
        return out
    }

    /// Adds a directory before the first entry under each folder no earlier entry is.
    mutating func addMissingParents() {
        var seen: Set<String> = []
        var result: [Entry] = []
        for entry in entries {
            let components = entry.path.split(separator: "/", omittingEmptySubsequences: false)
            for depth in components.indices.dropLast() {
                let parent = components[...depth].joined(separator: "/")
                if !parent.isEmpty && seen.insert(parent).inserted {
                    result.append(Entry(kind: .directory, path: parent, mode: 0o755))
                }
            }
            seen.insert(entry.path)
            result.append(entry)
        }
        entries = result
    }
}
