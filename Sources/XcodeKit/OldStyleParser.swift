import IAPSystem

/// A strict reader of old-style (OpenStep) ASCII property lists, the format of `project.pbxproj`:
/// `{ key = value; }`, `( a, b, )` (a trailing comma allowed), `<0fab>` data, strings quoted (with
/// C escapes `\a \b \f \n \r \t \v \" \' \\`, octal up to `\177` and `\Uhhhh`) or bare (letters,
/// digits and `_ $ / : . -`, as CoreFoundation's reader takes them), `/* */` and `//` comments.
///
/// It refuses what it cannot read exactly, never guessing: invalid UTF-8, a duplicate key, an
/// unknown escape, an octal escape above `\177` (a NeXTSTEP character), an unterminated string or
/// comment, anything after the root value; nesting deeper than `maxDepth`, input over `maxBytes`.
package struct OldStyleParser {
    /// Largest file read: 64 MiB (a project of 100,000 files is about 30 MB).
    package static let maxBytes = 64 << 20
    /// Deepest nesting of arrays and dictionaries.
    package static let maxDepth = 64

    private let bytes: [UInt8]
    private var position = 0
    private var depth = 0

    private init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Reads the one value `bytes` holds.
    package static func parse(_ bytes: [UInt8]) throws(OldStyleSyntaxError) -> OldStyleValue {
        var parser = OldStyleParser(bytes)
        guard bytes.count <= maxBytes else {
            throw parser.error("the file is \(bytes.count) bytes, over the \(maxBytes)-byte limit", at: 0)
        }
        if let bad = Self.firstInvalidUTF8(bytes) { throw parser.error("invalid UTF-8", at: bad) }
        try parser.skipSpace()
        guard parser.position < bytes.count else { throw parser.error("the file holds no value", at: parser.position) }
        let value = try parser.value()
        try parser.skipSpace()
        guard parser.position == bytes.count else {
            throw parser.error(
                "unexpected \(parser.describe(parser.position)) after the root value", at: parser.position)
        }
        return value
    }

    private mutating func value() throws(OldStyleSyntaxError) -> OldStyleValue {
        try skipSpace()
        guard position < bytes.count else { throw error("the file ends where a value should start", at: position) }
        switch bytes[position] {
        case UInt8(ascii: "{"): return .dictionary(try dictionary())
        case UInt8(ascii: "("): return .array(try array())
        case UInt8(ascii: "<"): return .data(try data())
        case UInt8(ascii: "\""), UInt8(ascii: "'"): return .string(try quoted())
        default:
            guard Self.isBare(bytes[position]) else {
                throw error("unexpected \(describe(position)) where a value should start", at: position)
            }
            return .string(bare())
        }
    }

    private mutating func dictionary() throws(OldStyleSyntaxError) -> OldStyleDictionary {
        try enter()
        position += 1
        var result = OldStyleDictionary()
        while true {
            try skipSpace()
            guard position < bytes.count else {
                throw error("the file ends inside a dictionary (no '}')", at: position)
            }
            if bytes[position] == UInt8(ascii: "}") { break }
            let keyStart = position
            guard case .string(let key) = try value() else {
                throw error("a dictionary key must be a string", at: keyStart)
            }
            try expect("=", after: "the key '\(key)'")
            let item = try value()
            try expect(";", after: "the value of '\(key)'")
            guard result.insert(key, item) else { throw error("the key '\(key)' appears twice", at: keyStart) }
        }
        position += 1
        depth -= 1
        return result
    }

    private mutating func array() throws(OldStyleSyntaxError) -> [OldStyleValue] {
        try enter()
        position += 1
        var items: [OldStyleValue] = []
        while true {
            try skipSpace()
            guard position < bytes.count else { throw error("the file ends inside an array (no ')')", at: position) }
            if bytes[position] == UInt8(ascii: ")") { break }
            items.append(try value())
            try skipSpace()
            guard position < bytes.count else { throw error("the file ends inside an array (no ')')", at: position) }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
            } else if bytes[position] != UInt8(ascii: ")") {
                throw error("expected ',' or ')' in an array, found \(describe(position))", at: position)
            }
        }
        position += 1
        depth -= 1
        return items
    }

    private mutating func data() throws(OldStyleSyntaxError) -> [UInt8] {
        let start = position
        position += 1
        var digits: [UInt8] = []
        while position < bytes.count, bytes[position] != UInt8(ascii: ">") {
            let byte = bytes[position]
            if byte == 0x20 || byte == 0x09 || byte == 0x0a || byte == 0x0d {
                position += 1
                continue
            }
            guard Hex.value(byte) != nil else { throw error("\(describe(position)) in <hex> data", at: position) }
            digits.append(byte)
            position += 1
        }
        guard position < bytes.count else { throw error("the file ends inside <hex> data (no '>')", at: start) }
        guard digits.count % 2 == 0 else { throw error("<hex> data with an odd number of digits", at: start) }
        position += 1
        return Hex.decode(String(decoding: digits, as: UTF8.self)) ?? []
    }

    private mutating func quoted() throws(OldStyleSyntaxError) -> String {
        let start = position
        let quote = bytes[position]
        position += 1
        var out: [UInt8] = []
        while true {
            guard position < bytes.count else { throw error("the file ends inside a quoted string", at: start) }
            let byte = bytes[position]
            if byte == quote { break }
            if byte != UInt8(ascii: "\\") {
                out.append(byte)
                position += 1
                continue
            }
            position += 1
            guard position < bytes.count else { throw error("the file ends inside a quoted string", at: start) }
            try escape(into: &out)
        }
        position += 1
        return String(decoding: out, as: UTF8.self)
    }

    /// One escape after its backslash.
    private mutating func escape(into out: inout [UInt8]) throws(OldStyleSyntaxError) {
        let escapeStart = position - 1
        let byte = bytes[position]
        position += 1
        let simple: [UInt8: UInt8] = [
            UInt8(ascii: "a"): 7, UInt8(ascii: "b"): 8, UInt8(ascii: "f"): 12, UInt8(ascii: "n"): 10,
            UInt8(ascii: "r"): 13, UInt8(ascii: "t"): 9, UInt8(ascii: "v"): 11, UInt8(ascii: "\""): 0x22,
            UInt8(ascii: "'"): 0x27, UInt8(ascii: "\\"): 0x5c,
        ]
        if let value = simple[byte] {
            out.append(value)
        } else if (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(byte) {
            var value = UInt32(byte - UInt8(ascii: "0"))
            for _ in 0..<2 {
                guard position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(bytes[position]) else {
                    break
                }
                value = value * 8 + UInt32(bytes[position] - UInt8(ascii: "0"))
                position += 1
            }
            guard value <= 0o177 else {
                throw error(
                    "the octal escape \\\(String(value, radix: 8)) names a NeXTSTEP character, which is not read",
                    at: escapeStart)
            }
            out.append(UInt8(value))
        } else if byte == UInt8(ascii: "U") {
            var value: UInt32 = 0
            var count = 0
            while count < 4, position < bytes.count, let digit = Hex.value(bytes[position]) {
                value = value << 4 | UInt32(digit)
                position += 1
                count += 1
            }
            guard count > 0, let scalar = Unicode.Scalar(value) else {
                throw error("a \\U escape that is not a Unicode scalar", at: escapeStart)
            }
            out.append(contentsOf: Array(String(Character(scalar)).utf8))
        } else {
            throw error("the unknown escape \\\(describe(position - 1, quoted: false))", at: escapeStart)
        }
    }

    private mutating func bare() -> String {
        let start = position
        while position < bytes.count, Self.isBare(bytes[position]) { position += 1 }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    private mutating func expect(_ character: Character, after what: String) throws(OldStyleSyntaxError) {
        try skipSpace()
        guard position < bytes.count, bytes[position] == character.asciiValue else {
            let found = position < bytes.count ? describe(position) : "the end of the file"
            throw error("expected '\(character)' after \(what), found \(found)", at: position)
        }
        position += 1
    }

    private mutating func enter() throws(OldStyleSyntaxError) {
        depth += 1
        guard depth <= Self.maxDepth else { throw error("nesting deeper than \(Self.maxDepth) levels", at: position) }
    }

    /// Skips white space and comments.
    private mutating func skipSpace() throws(OldStyleSyntaxError) {
        while position < bytes.count {
            let byte = bytes[position]
            if byte == 0x20 || byte == 0x09 || byte == 0x0a || byte == 0x0d || byte == 0x0c || byte == 0x0b {
                position += 1
            } else if byte == UInt8(ascii: "/"), position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "/") {
                while position < bytes.count, bytes[position] != 0x0a { position += 1 }
            } else if byte == UInt8(ascii: "/"), position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "*") {
                let start = position
                position += 2
                while position + 1 < bytes.count,
                    !(bytes[position] == UInt8(ascii: "*") && bytes[position + 1] == UInt8(ascii: "/"))
                {
                    position += 1
                }
                guard position + 1 < bytes.count else { throw error("a /* comment that never ends", at: start) }
                position += 2
            } else {
                return
            }
        }
    }

    private static func isBare(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "/"),
            UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "-"):
            true
        default: false
        }
    }

    /// The byte at `index` for a message: `'x'`, or its hex value when it is not printable ASCII.
    private func describe(_ index: Int, quoted: Bool = true) -> String {
        let byte = bytes[index]
        guard byte >= 0x21 && byte < 0x7f else { return "byte 0x" + Hex.encode([byte]) }
        let text = String(UnicodeScalar(byte))
        return quoted ? "'\(text)'" : text
    }

    /// The offset of the first byte that is not part of valid UTF-8, if any.
    private static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    private func error(_ reason: String, at offset: Int) -> OldStyleSyntaxError {
        var line = 1
        var lineStart = 0
        for index in 0..<min(offset, bytes.count) where bytes[index] == 0x0a {
            line += 1
            lineStart = index + 1
        }
        return OldStyleSyntaxError(reason: reason, offset: offset, line: line, column: offset - lineStart + 1)
    }
}
