import Foundation
import Testing

@testable import IAPKit

/// The scan looks entries up from each opened folder down to `relativeDepth` levels and by whole
/// path below: both give every entry, in order, with its kind, size, link target and sniffed code.
@Suite struct ContentFolderScannerTests {
    /// A Mach-O header: sniffed as code wherever it lies.
    static let machO: [UInt8] = [0xcf, 0xfa, 0xed, 0xfe, 7, 0, 0, 1] + [UInt8](repeating: 0, count: 56)

    /// Builds `levels` nested folders `d0/d1/…`, each holding `a.txt` (its depth as text), `m.bin`
    /// (Mach-O) on the levels in `code`, and `z` (a symlink to `a.txt`); returns the root.
    func tree(levels: Int, code: Set<Int>) throws -> String {
        let root = NSTemporaryDirectory() + "scan-depth-\(UUID().uuidString)"
        var folder = root
        let manager = FileManager.default
        for level in 0..<levels {
            folder += "/d\(level)"
            try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data("level \(level)\n".utf8).write(to: URL(fileURLWithPath: folder + "/a.txt"))
            if code.contains(level) { try Data(Self.machO).write(to: URL(fileURLWithPath: folder + "/m.bin")) }
            try manager.createSymbolicLink(atPath: folder + "/z", withDestinationPath: "a.txt")
        }
        return root
    }

    @Test func folderDeeperThanTheRelativeLookupsIsScannedAlike() throws {
        let levels = ContentFolderScanner.relativeDepth + 8
        let code: Set<Int> = [2, ContentFolderScanner.relativeDepth + 3]
        let root = try tree(levels: levels, code: code)
        defer { try? FileManager.default.removeItem(atPath: root) }

        let scan = try ContentFolderScanner.scan(root, excludeJunk: true)

        // Depth first, names in byte order: "a.txt" < "dN" (then its subtree) < "m.bin" < "z".
        func listing(_ level: Int, _ prefix: String) -> [String] {
            guard level < levels else { return [] }
            let folder = prefix + "d\(level)"
            return [folder, folder + "/a.txt"] + listing(level + 1, folder + "/")
                + (code.contains(level) ? [folder + "/m.bin"] : []) + [folder + "/z"]
        }
        #expect(scan.contents.map(\.rawPath) == ["."] + listing(0, ""))
        for (index, entry) in scan.contents.enumerated() where entry.components.last == "a.txt" {
            let level = entry.components.count - 2
            #expect(entry.kind == .file)
            #expect(entry.size == UInt64("level \(level)\n".utf8.count))
            #expect(entry.sniff != nil && entry.sniff?.executable == nil)
            // The folder's own entry comes right before its first child.
            #expect(scan.contents[index - 1].components == Array(entry.components.dropLast()))
        }
        let machOs = scan.contents.filter { $0.components.last == "m.bin" }
        #expect(machOs.map { $0.components.count - 2 }.sorted() == code.sorted())
        for entry in machOs {
            #expect(entry.sniff?.executable == .machO)
            #expect(entry.size == UInt64(Self.machO.count))
        }
        let links = scan.contents.filter { $0.components.last == "z" }
        #expect(links.count == levels)
        #expect(links.allSatisfy { $0.kind == .symlink && $0.linkTarget == "a.txt" && $0.size == 5 })
    }
}
