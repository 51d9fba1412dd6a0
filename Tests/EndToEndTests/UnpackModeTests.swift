import Foundation
import Testing

/// Unpacked files are 0644 and folders 0755 whatever the umask or a default ACL on the store would
/// make of them: unpack leaves out the chmod after each create only when neither changes a mode.
@Suite struct UnpackModeTests {
    /// A package of 300 files in nested folders (past the 256 entries where one syncfs flushes all).
    func package(_ scratch: ScratchFolder) throws -> String {
        var files: [String: String] = [:]
        for i in 0..<300 { files["Contents/d\(i % 7)/e\(i % 3)/f\(i).txt"] = "file \(i)\n" }
        let folder = try scratch.contentFolder("src", product: "com.example.modes", files: files)
        let pkg = scratch.at("modes.pkg")
        let built = try Harness.run(["iapkg", "build", folder, "-o", pkg])
        #expect(built.status == 0, "\(built.stderr)")
        return pkg
    }

    /// Unpacks under `umask` (octal text) into `root`; returns every mode found below the version folder.
    func unpackedModes(_ pkg: String, root: String, umask: String) throws -> [String: Set<Int>] {
        let result = try Harness.run([
            "sh", "-c", "umask \(umask) && '\(Harness.binary)' unpack '\(pkg)' --into '\(root)'",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let version = root + "/com.example.modes/1.0"
        var modes: [String: Set<Int>] = [:]
        let walker = try #require(FileManager.default.enumerator(atPath: version))
        while let relative = walker.nextObject() as? String {
            let attributes = try FileManager.default.attributesOfItem(atPath: version + "/" + relative)
            let kind = (attributes[.type] as? FileAttributeType) == .typeDirectory ? "folder" : "file"
            modes[kind, default: []].insert(try #require(attributes[.posixPermissions] as? Int))
        }
        return modes
    }

    @Test(arguments: ["022", "077", "002"])
    func modesAreNormalisedUnderAnyUmask(umask: String) throws {
        let scratch = ScratchFolder()
        let pkg = try package(scratch)
        let modes = try unpackedModes(pkg, root: scratch.at("srv"), umask: umask)
        #expect(modes["file"] == [0o644])
        #expect(modes["folder"] == [0o755])
    }

    /// A default ACL of user rwx only (group and others nothing) on the store, inherited by the
    /// staging folder, would give 0600 files and 0700 folders.
    @Test func modesAreNormalisedUnderADefaultACL() throws {
        let scratch = ScratchFolder()
        let pkg = try package(scratch)
        let root = scratch.at("srv")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let setACL = try Harness.run([
            "python3", "-c",
            """
            import os, struct, sys
            entry = lambda tag, perm: struct.pack('<HHI', tag, perm, 0xffffffff)
            os.setxattr(sys.argv[1], 'system.posix_acl_default',
                        struct.pack('<I', 2) + entry(1, 7) + entry(4, 0) + entry(0x20, 0))
            """,
            root,
        ])
        #expect(setACL.status == 0, "\(setACL.stderr)")
        let modes = try unpackedModes(pkg, root: root, umask: "022")
        #expect(modes["file"] == [0o644])
        #expect(modes["folder"] == [0o755])
    }
}
