import Foundation
import Testing

/// A file system that fills up during `build` and during `unpack` (a small tmpfs, mounted as root):
/// a clean error, exit 2, nothing partial left, and what was there before intact.
@Suite(.serialized, .onTestThreads) struct FullDiskTests {
    static let product = "com.example.fulldisk"

    @Test(.enabled(if: FaultConditions.canMount, "needs root (CAP_SYS_ADMIN) to mount a 2 MB tmpfs"))
    func buildOntoAFullDiskKeepsTheOldPackageAndLeavesNothing() throws {
        let scratch = ScratchFolder()
        let small = try SmallFileSystem(at: scratch.at("small"), options: "size=2m")
        let folder = try scratch.contentFolder("content", files: ["Contents/readme.txt": "first\n"])
        let output = small.path + "/out.pkg"
        let first = try Harness.run(["iapkg", "build", folder, "-o", output])
        #expect(first.status == 0, "\(first.stderr)")
        let old = try Data(contentsOf: URL(fileURLWithPath: output))
        let used = small.usedBytes()

        // 4 MB of random bytes cannot fit in 2 MB, compressed or not.
        try randomBytes(4 << 20).write(to: URL(fileURLWithPath: folder + "/Contents/noise.bin"))
        let full = try Harness.run(["iapkg", "build", folder, "-o", output])
        #expect(full.status == 2, "\(full.stderr)")
        #expect(full.stderr.contains("error") && full.stderr.contains("space"), "\(full.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == old)
        #expect(try FileManager.default.contentsOfDirectory(atPath: small.path) == ["out.pkg"])
        #expect(small.usedBytes() == used, "the unfinished package's blocks must be freed")

        // A new output name: nothing appears under it.
        let fresh = try Harness.run(["iapkg", "build", folder, "-o", small.path + "/new.pkg"])
        #expect(fresh.status == 2, "\(fresh.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: small.path) == ["out.pkg"])
        #expect(small.usedBytes() == used)
    }

    /// Unpack checks the free bytes before writing, so the disk here fills by running out of inodes
    /// part-way through the staging folder: the failure happens mid-write, not in the check.
    @Test(.enabled(if: FaultConditions.canMount, "needs root (CAP_SYS_ADMIN) to mount a tmpfs"))
    func unpackRunningOutOfRoomMidWriteKeepsTheStoreAsItWas() throws {
        let scratch = ScratchFolder()
        let v1Folder = try scratch.contentFolder("v1", product: Self.product, version: "1.0")
        var many: [String: String] = [:]
        for index in 0..<300 { many["Contents/part\(index / 50)/file\(index).txt"] = "file \(index)\n" }
        let v2Folder = try scratch.contentFolder("v2", product: Self.product, version: "2.0", files: many)
        for (folder, name) in [(v1Folder, "v1.pkg"), (v2Folder, "v2.pkg")] {
            let built = try Harness.run(["iapkg", "build", folder, "-o", scratch.at(name)])
            #expect(built.status == 0, "\(built.stderr)")
        }
        let small = try SmallFileSystem(at: scratch.at("small"), options: "size=16m,nr_inodes=64")
        let root = small.path + "/srv"
        let productFolder = root + "/" + Self.product
        let installed = try Harness.run(["iapkg", "unpack", scratch.at("v1.pkg"), "--into", root])
        #expect(installed.status == 0, "\(installed.stderr)")
        let before = try ScratchFolder.snapshotOf(productFolder)
        let link = try FileManager.default.destinationOfSymbolicLink(atPath: productFolder + "/current")

        let full = try Harness.run(["iapkg", "unpack", scratch.at("v2.pkg"), "--into", root])
        #expect(full.status == 2, "\(full.stderr)")
        #expect(full.stderr.contains("error") && full.stderr.contains("space"), "\(full.stderr)")
        #expect(try ScratchFolder.snapshotOf(productFolder) == before, "the store must be as it was")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: productFolder + "/current") == link)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: productFolder).sorted() == [
                ".lock", "1.0", "current", "current.json",
            ])

        // With room again, the same unpack completes.
        #expect(try Harness.run(["mount", "-o", "remount,nr_inodes=4096", small.path]).status == 0)
        let again = try Harness.run(["iapkg", "unpack", scratch.at("v2.pkg"), "--into", root])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try ScratchFolder.snapshotOf(productFolder + "/2.0") == ScratchFolder.snapshotOf(v2Folder))
    }
}
