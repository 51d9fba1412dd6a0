import IAPKit

/// The rows of inspect's listing ("  file   644   1234  Contents/a.png"), written straight from the
/// package's listing into one String sized first: no value and no growth per entry, for a million
/// entries as for ten.
enum InspectListingText {
    /// `head`, then every row of `listing`, each row ending in a newline but the last; sizes
    /// right-aligned in `sizeWidth` columns (at least the widest size's digits).
    static func text(_ listing: InspectListing, sizeWidth: Int, after head: String) -> String {
        var capacity = head.utf8.count
        listing.forEachRow { row in capacity += rowLength(row, sizeWidth: sizeWidth) }
        return String(unsafeUninitializedCapacity: capacity) { buffer in
            var writer = Writer(buffer: buffer)
            writer.text(head)
            listing.forEachRow { row in
                // Each row writes exactly rowLength bytes; refuse (never overrun) if it would not fit.
                precondition(writer.position + rowLength(row, sizeWidth: sizeWidth) <= buffer.count)
                writer.row(row, sizeWidth: sizeWidth)
            }
            return writer.position > 0 && buffer[writer.position - 1] == UInt8(ascii: "\n")
                ? writer.position - 1 : writer.position
        }
    }

    /// The bytes of `row`'s line.
    private static func rowLength(_ row: InspectListing.Row, sizeWidth: Int) -> Int {
        typeColumn(row.type).count + max(4, digitCount(UInt64(row.permissions), radix: 8)) + 2
            + max(sizeWidth, digitCount(row.size, radix: 10)) + 2 + row.path.count
            + (row.linkTarget.map { 4 + $0.utf8.count } ?? 0) + 1
    }

    private static let fileType = Array("  file  ".utf8)
    private static let folderType = Array("  dir   ".utf8)
    private static let linkType = Array("  link  ".utf8)

    /// The TYPE column with its margins.
    private static func typeColumn(_ type: ContentEntry.Kind) -> [UInt8] {
        switch type {
        case .file: fileType
        case .directory: folderType
        case .symlink: linkType
        default: Array("  \(String(type.name.prefix(4)))  ".utf8)
        }
    }

    /// Writes rows into memory sized beforehand.
    private struct Writer {
        let buffer: UnsafeMutableBufferPointer<UInt8>
        var position = 0

        mutating func row(_ row: InspectListing.Row, sizeWidth: Int) {
            bytes(typeColumn(row.type))
            number(UInt64(row.permissions), radix: 8, width: 4)
            spaces(2)
            number(row.size, radix: 10, width: sizeWidth)
            spaces(2)
            _ = UnsafeMutableBufferPointer(rebasing: buffer[position..<position + row.path.count]).initialize(
                fromContentsOf: row.path)
            position += row.path.count
            if let target = row.linkTarget {
                bytes([0x20, 0x2D, 0x3E, 0x20])  // " -> "
                text(target)
            }
            buffer[position] = UInt8(ascii: "\n")
            position += 1
        }

        private mutating func bytes(_ bytes: [UInt8]) {
            for byte in bytes {
                buffer[position] = byte
                position += 1
            }
        }

        private mutating func spaces(_ count: Int) {
            for _ in 0..<max(0, count) {
                buffer[position] = 0x20
                position += 1
            }
        }

        mutating func text(_ text: String) {
            var text = text
            text.withUTF8 { utf8 in
                _ = UnsafeMutableBufferPointer(rebasing: buffer[position..<position + utf8.count]).initialize(
                    fromContentsOf: utf8)
                position += utf8.count
            }
        }

        /// `value` in `radix` (8 or 10), right-aligned in `width` columns.
        private mutating func number(_ value: UInt64, radix: UInt64, width: Int) {
            let digits = digitCount(value, radix: radix)
            spaces(width - digits)
            var rest = value
            var index = position + digits
            repeat {
                index -= 1
                buffer[index] = UInt8(ascii: "0") + UInt8(rest % radix)
                rest /= radix
            } while rest > 0
            position += digits
        }
    }
}
