import Testing

@testable import IAPKit
@testable import IAPKitCLI

/// inspect's listing goes out in chunks of at most 64 KiB, each ending at a row's end, and says the
/// same as one row per entry formatted the plain way.
@Suite struct InspectListingTextTests {
    /// One row the plain way: type, mode (at least 4 columns), size right-aligned, path, link target.
    func plainRow(_ file: InspectReport.File, sizeWidth: Int) -> String {
        let type = ["file": "file", "directory": "dir ", "symlink": "link"][file.type.name] ?? "?   "
        let mode = String(repeating: " ", count: max(0, 4 - file.mode.count)) + file.mode
        let size = String(file.size)
        return "  \(type)  \(mode)  " + String(repeating: " ", count: max(0, sizeWidth - size.count)) + size + "  "
            + file.path + (file.linkTarget.map { " -> " + $0 } ?? "") + "\n"
    }

    @Test func aLongListingIsChunkedAtRowEndsAndMatchesThePlainRows() {
        // 3,000 rows of ~130 bytes: about six chunks.
        let files = (0..<3000).map { number in
            InspectReport.File(
                path: "Contents/" + String(repeating: "é", count: number % 50) + "/file-\(number)-"
                    + String(repeating: "x", count: 60),
                type: number % 7 == 0 ? .symlink : .file, size: UInt64(number * 977),
                mode: number % 3 == 0 ? "755" : "644",
                linkTarget: number % 7 == 0 ? "../target-\(number)" : nil)
        }
        let listing = InspectListing(files: files)
        let sizeWidth = 7
        var chunks: [String] = []
        InspectListingText.write(listing, sizeWidth: sizeWidth, to: { chunks.append($0) })
        #expect(chunks.count >= 5)
        #expect(chunks.allSatisfy { $0.utf8.count <= InspectListingText.chunkBytes && $0.hasSuffix("\n") })
        #expect(chunks.joined() == files.map { plainRow($0, sizeWidth: sizeWidth) }.joined())
    }

    @Test func anEmptyListingWritesNothing() {
        var chunks: [String] = []
        InspectListingText.write(InspectListing(), sizeWidth: 4, to: { chunks.append($0) })
        #expect(chunks.isEmpty)
    }
}
