import Foundation
import IAPKit
import Testing

/// A package truncated, or rewritten in place, while `validate`, `inspect` or `unpack` reads it:
/// a clean finding or error (exit 1 or 2, never a signal), and never a partial published version.
@Suite struct ChangingInputTests {
    static let product = "com.example.changing"

    /// How a round spoils the package under the reader's feet.
    enum Change: CaseIterable {
        /// Cut to a random fraction of its size.
        case truncate
        /// 64 KiB of random bytes written over it at a random offset past the header.
        case overwrite
        /// The same version, other content, written over it from the start (a new package replacing the file in place).
        case replace
    }

    /// A content folder with 2 MB of random bytes in four files, and its package in `layout`.
    static func source(_ scratch: ScratchFolder, layout: String) throws -> (folder: String, package: String) {
        let folder = try scratch.contentFolder("src-\(layout)", product: product, version: "1.0")
        for index in 0..<4 {
            try scratch.write("src-\(layout)/Contents/media/clip\(index).bin", randomBytes(512 << 10))
        }
        let package = scratch.at("\(layout).pkg")
        try InProcessBuild.package(folder, to: package, layout: try #require(PackageLayout(rawValue: layout)))
        return (folder, package)
    }

    /// Applies `change` to the file at `path` (in place: the reader keeps its descriptor).
    static func apply(_ change: Change, to path: String, other: Data) throws {
        let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        switch change {
        case .truncate:
            #expect(truncate(path, off_t(Int.random(in: 28..<max(29, size)))) == 0)
        case .overwrite:
            let handle = try #require(FileHandle(forUpdatingAtPath: path))
            try handle.seek(toOffset: UInt64(Int.random(in: 28..<max(29, size - 65536))))
            try handle.write(contentsOf: randomBytes(65536))
            try handle.close()
        case .replace:
            let handle = try #require(FileHandle(forUpdatingAtPath: path))
            try handle.write(contentsOf: other)
            try handle.truncate(atOffset: UInt64(other.count))
            try handle.close()
        }
    }

    @Test(arguments: ["product", "tree"], ["validate", "inspect", "unpack"])
    func packageChangedWhileReadGivesAFindingOrAnError(layout: String, command: String) throws {
        let scratch = ScratchFolder()
        let (folder, pristine) = try Self.source(scratch, layout: layout)
        let otherScratch = ScratchFolder()
        let other = try Data(contentsOf: URL(fileURLWithPath: try Self.source(otherScratch, layout: layout).package))
        let work = scratch.at("work.pkg")
        let root = scratch.at("srv")
        let installed = root + "/" + Self.product + "/1.0"
        func arguments() -> [String] { command == "unpack" ? ["unpack", work, "--into", root] : [command, work] }

        try FileManager.default.copyItem(atPath: pristine, toPath: work)
        let start = Date()
        let whole = try Harness.run(["iapkg"] + arguments())
        #expect(whole.status == 0, "\(whole.stderr)")
        let duration = Date().timeIntervalSince(start)

        let rounds = 6
        for round in 0..<rounds {
            try? FileManager.default.removeItem(atPath: work)
            try? FileManager.default.removeItem(atPath: root)
            try FileManager.default.copyItem(atPath: pristine, toPath: work)
            let change = Change.allCases[round % Change.allCases.count]
            let running = try RunningProcess(arguments(), scratch: scratch)
            Thread.sleep(forTimeInterval: duration * Double(round) / Double(rounds))
            try Self.apply(change, to: work, other: other)
            let status = running.finish()
            let label = "\(command) \(layout), round \(round), \(change)"
            #expect(status != nil, "\(label): ended by a signal\n\(running.output)")
            #expect([0, 1, 2].contains(status ?? -1), "\(label): exit \(status ?? -1)\n\(running.output)")
            if status != 0 {
                #expect(running.output.contains("error"), "\(label): no finding or error said\n\(running.output)")
            }
            guard command == "unpack" else { continue }
            if FileManager.default.fileExists(atPath: installed) {
                // Published only when complete; `other` is the same version, so either content may win.
                let now = try ScratchFolder.snapshotOf(installed)
                let candidates = [try ScratchFolder.snapshotOf(folder), try ScratchFolder.snapshotOf(otherFolder())]
                #expect(candidates.contains(now), "\(label): a partial version was published")
            } else {
                #expect(status != 0, "\(label): success without a version")
            }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: root + "/" + Self.product)) ?? []
            let hidden = names.filter { $0.hasPrefix(".") && $0 != ".lock" }
            #expect(hidden.isEmpty, "\(label): \(hidden)")
        }

        func otherFolder() -> String { otherScratch.at("src-\(layout)") }
    }
}
