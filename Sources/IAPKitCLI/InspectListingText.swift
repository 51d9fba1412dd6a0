import IAPKit

/// The rows of inspect's listing ("  file   644   1234  Contents/a.png"), written straight into one
/// byte buffer sized first: no String and no growth per entry, for a million entries as for ten.
enum InspectListingText {
    /// `head`, then every row, each ending in a newline; sizes right-aligned in `sizeWidth`
    /// columns (at least the widest size's digits).
    static func rows(_ files: [InspectReport.File], sizeWidth: Int, after head: String) -> [UInt8] {
        var capacity = head.utf8.count
        for file in files { capacity += rowLength(file, sizeWidth: sizeWidth) }
        return [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
            var writer = Writer(buffer: buffer)
            writer.text(head)
            for file in files {
                // Each row writes exactly rowLength bytes; refuse (never overrun) if it would not fit.
                precondition(writer.position + rowLength(file, sizeWidth: sizeWidth) <= buffer.count)
                writer.row(file, sizeWidth: sizeWidth)
            }
            count = writer.position
        }
    }

    /// The bytes of `file`'s row.
    private static func rowLength(_ file: InspectReport.File, sizeWidth: Int) -> Int {
        typeColumn(file.type).count + max(4, file.mode.utf8.count) + 2 + max(sizeWidth, decimalDigits(file.size)) + 2
            + file.path.utf8.count + (file.linkTarget.map { 4 + $0.utf8.count } ?? 0) + 1
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

        mutating func row(_ file: InspectReport.File, sizeWidth: Int) {
            bytes(typeColumn(file.type))
            padded(file.mode, width: 4)
            spaces(2)
            decimal(file.size, width: sizeWidth)
            spaces(2)
            text(file.path)
            if let target = file.linkTarget {
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

        private mutating func padded(_ value: String, width: Int) {
            spaces(width - value.utf8.count)
            text(value)
        }

        /// `value` in decimal, right-aligned in `width` columns.
        private mutating func decimal(_ value: UInt64, width: Int) {
            let digits = decimalDigits(value)
            spaces(width - digits)
            var rest = value
            var index = position + digits
            repeat {
                index -= 1
                buffer[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            position += digits
        }
    }
}
