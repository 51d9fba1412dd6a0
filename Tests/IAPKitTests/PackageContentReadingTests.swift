import Foundation
import IAPTestSupport
import Testing

@testable import IAPKit

/// A validated package read again entry by entry: all of them, or only some (a publish's pass that
/// sends again what failed), in both layouts, each with its own bytes.
@Suite struct PackageContentReadingTests {
    let scratch = ScratchFolder()

    /// Validates a package of `layout` with five files, and returns its outcome.
    func validated(_ layout: PackageLayout) throws -> PackageValidator.PackageOutcome {
        var files: [String: String] = [:]
        for index in 0..<5 { files["Contents/f\(index).txt"] = "file \(index)\n" }
        let folder = try scratch.contentFolder("src-\(layout)", files: files)
        let package = scratch.at("\(layout).pkg")
        _ = try PackageBuilder.build(folder: folder, options: BuildOptions(layout: layout, output: package))
        let size = try #require(try FileManager.default.attributesOfItem(atPath: package)[.size] as? UInt64)
        return try PackageValidator.validatePackage(
            package, size: size, options: ValidationOptions(), keepArchive: true)
    }

    /// Each visited entry's index and the text it reads (nil: it carries no bytes).
    func visit(_ outcome: PackageValidator.PackageOutcome, only: Set<Int>?) throws -> [Int: String?] {
        let (archive, parts) = (try #require(outcome.archive), try #require(outcome.parts))
        var seen: [Int: String?] = [:]
        try PackageContentReading.forEachEntry(outcome.entries, archive: archive, parts: parts, only: only) {
            index, read in
            guard let read else {
                seen[index] = .some(nil)
                return
            }
            var bytes = [UInt8](repeating: 0, count: 64)
            let count = try bytes.withUnsafeMutableBytes { try read($0) }
            seen[index] = String(decoding: bytes[..<count], as: UTF8.self)
        }
        return seen
    }

    @Test(arguments: PackageLayout.allCases)
    func onlyTheWantedEntriesAreVisitedWithTheirOwnBytes(layout: PackageLayout) throws {
        let outcome = try validated(layout)
        let all = try visit(outcome, only: nil)
        let files = outcome.entries.indices.filter { outcome.entries[$0].path.hasPrefix("Contents/f") }
        #expect(files.count == 5)
        for index in files { #expect(all[index] == "file \(outcome.entries[index].path.dropFirst(10).prefix(1))\n") }
        let wanted: Set<Int> = [files[1], files[3]]
        let some = try visit(outcome, only: wanted)
        #expect(Set(some.keys) == wanted)
        for index in wanted { #expect(some[index] == all[index]) }
        #expect(try visit(outcome, only: []).isEmpty)
    }
}
