import IAPKit

/// The rows of inspect's listing ("  file   644   1234  Contents/a.png"), written straight from the
/// package's listing in chunks of 64 KiB: no value per entry and no memory that grows with the
/// entries, for a million as for ten.
enum InspectListingText {
    /// The size of one chunk handed to the sink (a row longer than that gets a chunk of its own).
    static let chunkBytes = 64 << 10

    /// Every row of `listing`, each ending in a newline, handed to `sink` in chunks; sizes
    /// right-aligned in `sizeWidth` columns (at least the widest size's digits).
    static func write(_ listing: InspectListing, sizeWidth: Int, to sink: (String) -> Void) {
        var buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: chunkBytes)
        var used = 0
        listing.forEachRow { row in
            let length = rowLength(row, sizeWidth: sizeWidth)
            if used + length > buffer.count {
                flush(buffer, &used, to: sink)
                if length > buffer.count {
                    buffer.deallocate()
                    buffer = .allocate(capacity: length)
                }
            }
            var writer = Writer(buffer: buffer, position: used)
            writer.row(row, sizeWidth: sizeWidth)
            // Each row writes exactly rowLength bytes.
            precondition(writer.position == used + length)
            used = writer.position
        }
        flush(buffer, &used, to: sink)
        buffer.deallocate()
    }

    /// Hands the first `used` bytes of `buffer` to `sink` and empties it.
    private static func flush(_ buffer: UnsafeMutableBufferPointer<UInt8>, _ used: inout Int, to sink: (String) -> Void)
    {
        guard used > 0 else { return }
        sink(String(decoding: UnsafeBufferPointer(rebasing: buffer[..<used]), as: UTF8.self))
        used = 0
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
            _ = UnsafeMutableBufferPointer(rebasing: buffer[position..<position + bytes.count]).initialize(
                fromContentsOf: bytes)
            position += bytes.count
        }

        private mutating func spaces(_ count: Int) {
            for _ in 0..<max(0, count) {
                buffer[position] = 0x20
                position += 1
            }
        }

        private mutating func text(_ text: String) {
            var text = text
            text.withUTF8 { utf8 in
                _ = UnsafeMutableBufferPointer(rebasing: buffer[position..<position + utf8.count]).initialize(
                    fromContentsOf: utf8)
                position += utf8.count
            }
        }

        /// `value` in `radix` (8 or 10), right-aligned in `width` columns. Inlined, so each caller's
        /// radix is a constant and no digit costs a division instruction.
        @inline(__always)
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
