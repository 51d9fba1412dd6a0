import Foundation
import Testing

/// A destination that cannot be written (a read-only mount, as root): `build` and `unpack` give a
/// clean error, exit 2, and change nothing there.
@Suite(.serialized, .onTestThreads) struct ReadOnlyDestinationTests {
    static let product = "com.example.readonly"

    @Test(.enabled(if: FaultConditions.canMount, "needs root (CAP_SYS_ADMIN) to mount a read-only tmpfs"))
    func buildIntoAReadOnlyFolderFailsCleanly() throws {
        let scratch = ScratchFolder()
        let folder = try scratch.contentFolder("content")
        let mount = try SmallFileSystem(at: scratch.at("ro"), options: "size=4m")
        let output = mount.path + "/out.pkg"
        #expect(try Harness.run(["iapkg", "build", folder, "-o", output]).status == 0)
        let old = try Data(contentsOf: URL(fileURLWithPath: output))
        try mount.remount(readOnly: true)
        try scratch.write("content/Contents/readme.txt", "second\n")

        for target in [output, mount.path + "/new.pkg"] {
            let result = try Harness.run(["iapkg", "build", folder, "-o", target])
            #expect(result.status == 2, "\(result.stderr)")
            #expect(result.stderr.contains("error") && result.stderr.contains("Read-only"), "\(result.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == old)
        #expect(try FileManager.default.contentsOfDirectory(atPath: mount.path) == ["out.pkg"])
    }

    @Test(.enabled(if: FaultConditions.canMount, "needs root (CAP_SYS_ADMIN) to mount a read-only tmpfs"))
    func unpackIntoAReadOnlyRootFailsCleanly() throws {
        let scratch = ScratchFolder()
        var packages: [String] = []
        for version in ["1.0", "2.0"] {
            let folder = try scratch.contentFolder("v\(version)", product: Self.product, version: version)
            packages.append(scratch.at("v\(version).pkg"))
            #expect(try Harness.run(["iapkg", "build", folder, "-o", packages.last!]).status == 0)
        }
        let mount = try SmallFileSystem(at: scratch.at("ro"), options: "size=4m")
        let root = mount.path + "/srv"
        #expect(try Harness.run(["iapkg", "unpack", packages[0], "--into", root]).status == 0)
        let before = try ScratchFolder.snapshotOf(root)
        try mount.remount(readOnly: true)

        // A product already in the store, and a new root: each a clean error.
        let attempts = [
            ["unpack", packages[1], "--into", root],
            ["unpack", packages[1], "--into", mount.path + "/other"],
        ]
        for arguments in attempts {
            let result = try Harness.run(["iapkg"] + arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("error") && result.stderr.contains("Read-only"), "\(result.stderr)")
        }
        #expect(try ScratchFolder.snapshotOf(root) == before)
        // Reading still works.
        #expect(try Harness.run(["iapkg", "list", root]).status == 0)
    }
}
