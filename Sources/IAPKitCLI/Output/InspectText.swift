import IAPKit

/// The text rendering of an inspect report.
enum InspectText {
    /// The report's head, then its listing, handed to `sink` in pieces that end in a newline.
    static func write(_ report: InspectReport, to sink: (String) -> Void) {
        var lines: [String] = [report.path]
        func row(_ label: String, _ value: String) {
            lines.append("  " + label.paddedOrCut(to: 13) + value)
        }
        row("shape", report.shape.rawValue + (report.componentName.map { " (component \($0).pkg)" } ?? ""))
        row("product", report.productIdentifier ?? "?")
        row("version", report.contentVersion ?? "?")
        if !report.extraKeys.isEmpty { row("extra keys", report.extraKeys.joined(separator: ", ")) }
        row("checksum", report.checksumAlgorithm)
        row("compression", report.compression)
        let listing = report.listing
        let counts = (files: listing.fileCount, folders: listing.folderCount, links: listing.linkCount)
        func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
        row(
            "entries",
            "\(report.fileCount) (\(plural(counts.files, "file")), \(plural(counts.folders, "folder")), \(plural(counts.links, "link")))"
        )
        row("package", "\(report.packageSize) bytes")
        row("stored", "\(report.storedSize) bytes")
        row("unpacked", "\(report.unpackedSize) bytes")
        lines += SignatureText.chain(report.signatures ?? [])
        lines.append("")
        let sizeWidth = max(4, digitCount(listing.largestSize))
        lines.append("  TYPE  MODE  " + "SIZE".leftPadded(sizeWidth) + "  PATH")
        sink(lines.joined(separator: "\n") + "\n")
        InspectListingText.write(listing, sizeWidth: sizeWidth, to: sink)
    }
}

/// How many digits `value` has in `radix` (1 for 0).
@inline(__always)
func digitCount(_ value: UInt64, radix: UInt64 = 10) -> Int {
    var digits = 1
    var rest = value / radix
    while rest > 0 {
        digits += 1
        rest /= radix
    }
    return digits
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
