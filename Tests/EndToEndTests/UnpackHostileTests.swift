import Foundation
import Testing

/// Hostile packages given to `unpack`: refused before anything is written, inside or outside the root.
@Suite(.onTestThreads) struct UnpackHostileTests {
    let scratch = ScratchFolder()

    func tree(_ name: String, _ contents: [XarNode], plist: String? = nil) throws -> String {
        try scratch.hostileTree(
            name, contents, plist: plist ?? Fixtures.plist(product: "com.example.test", version: "1.0"))
    }

    func product(_ name: String, _ items: [CpioItem]) throws -> String {
        try scratch.hostileProduct(name, items)
    }

    @Test func hostilePackagesLeaveNothingBehind() throws {
        let packages = [
            try tree("dotdot", [.file("../../escaped", text: "x")]),
            try product("cpio-dotdot", [.file("./Contents/../../escaped", text: "x")]),
            try tree("escape-link", [.symlink("out", to: "../../..")]),
            try product(
                "write-through", [.symlink("./Contents/dir", to: "../.."), .file("./Contents/dir/escaped", text: "x")]),
            try product(
                "hardlink-out",
                [
                    CpioItem(path: "/etc/passwd", mode: 0o100644, ino: 77, nlink: 2),
                    CpioItem(path: "./Contents/pw", mode: 0o100644, ino: 77, nlink: 2),
                ]),
            try product("device", [CpioItem(path: "./Contents/dev", mode: 0o020644)]),
            try tree(
                "version-path", [.file("a.txt", text: "a")],
                plist: Fixtures.plist(product: "com.example.test", version: "../x")),
        ]
        let root = scratch.at("srv")
        for package in packages {
            let result = try Harness.run(["iapkg", "unpack", package, "--into", root])
            #expect(result.status == 1, "\(package): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: root), "\(package) created \(root)")
        }
        // Nothing escaped next to the root either.
        #expect(!FileManager.default.fileExists(atPath: scratch.at("escaped")))
        #expect(!FileManager.default.fileExists(atPath: scratch.at("../escaped")))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).allSatisfy { $0.hasSuffix(".pkg") })
    }
}
