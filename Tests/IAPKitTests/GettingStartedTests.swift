import Foundation
import IAPKit
import Testing

// The code of Sources/IAPKit/IAPKit.docc/GettingStarted.md, verbatim: compiled here against IAPKit's
// public API (a plain import, not @testable), run below, and compared with the article's blocks.

/// Prints every finding of `path` and tells whether it is valid.
func check(_ path: String) throws -> Bool {
    let options = ValidationOptions(strict: true, productIdentifier: "com.example.books.harbour.chapter1")
    let report = try PackageValidator.validate(path, options: options)
    for finding in report.findings {
        print("\(finding.severity)[\(finding.rule)] \(finding.entry ?? path): \(finding.message)")
    }
    print("\(report.productIdentifier ?? "?") \(report.contentVersion ?? "?"): \(report.valid ? "valid" : "invalid")")
    return report.valid
}

/// Installs `package` under `root`, keeping the three newest versions; returns the new folder.
func install(_ package: String, into root: String) throws(IAPKitError) -> String {
    let report = try Unpacker.unpack(package, into: root, options: UnpackOptions(keep: 3))
    print("\(report.productIdentifier) \(report.version): \(report.action), current → \(report.current ?? "none")")
    return report.folder
}

@Suite struct GettingStartedTests {
    static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/"
            && !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path)
        {
            url.deleteLastPathComponent()
        }
        return url
    }()

    /// The article's ```swift blocks, without their `import IAPKit` line.
    static func articleBlocks() throws -> [String] {
        let article = try String(
            contentsOf: packageRoot.appendingPathComponent("Sources/IAPKit/IAPKit.docc/GettingStarted.md"),
            encoding: .utf8)
        var blocks: [String] = []
        var current: [Substring]?
        for line in article.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```swift" {
                current = []
            } else if current != nil, line == "```" {
                blocks.append(current!.drop { $0 == "import IAPKit" || $0.isEmpty }.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    @Test func theArticlesCodeIsTheCodeCompiledHere() throws {
        let blocks = try Self.articleBlocks()
        #expect(blocks.count == 2)
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        for block in blocks {
            #expect(source.contains(block + "\n"), "GettingStarted.md's block is not in this file verbatim:\n\(block)")
        }
    }

    @Test func theArticlesCodeValidatesAndUnpacks() throws {
        let scratch = NSTemporaryDirectory() + "iapkg-docc-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let package = scratch + "/chapter.pkg"
        let example = Self.packageRoot.appendingPathComponent("Examples/book-chapter").path
        _ = try PackageBuilder.build(
            folder: example, options: BuildOptions(output: package, sourceDateEpoch: 1_700_000_000))

        #expect(try check(package))
        let folder = try install(package, into: scratch + "/srv")
        #expect(FileManager.default.fileExists(atPath: folder + "/Contents/chapter1.txt"))
        #expect(try !check(Self.packageRoot.appendingPathComponent("Examples/broken-pack").path))
    }
}
