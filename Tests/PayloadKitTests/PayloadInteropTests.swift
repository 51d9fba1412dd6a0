import Foundation
import IAPSystem
import PayloadKit
import Testing

/// Our payloads against tools nobody here wrote, and their payloads against our reader.
@Suite struct PayloadInteropTests {
    private typealias Support = PayloadTestSupport

    private func writeSamplePayload(in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("Payload").path
        try Data(SampleContent.payload()).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func gzipAcceptsOurPayload() throws {
        let directory = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let payload = try writeSamplePayload(in: directory)
        let result = try Support.run("gzip -t \(Support.shellQuoted(payload))")
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test func bsdtarListsOurPayload() throws {
        let directory = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let payload = try writeSamplePayload(in: directory)
        let names = try Support.run("bsdtar -tf \(Support.shellQuoted(payload))")
        #expect(names.status == 0, "\(names.stderr)")
        #expect(names.stdout == SampleContent.paths.map { $0 + "\n" }.joined())

        let verbose = try Support.run("bsdtar -tvf \(Support.shellQuoted(payload))")
        #expect(verbose.status == 0, "\(verbose.stderr)")
        let lines = verbose.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == SampleContent.items.count)
        #expect(lines.first?.hasPrefix("drwxr-xr-x  1 0      0 ") == true, "\(lines)")
        #expect(
            lines.contains {
                $0.hasPrefix("lrwxr-xr-x  1 0      0 ") && $0.hasSuffix("./Contents/current -> levels/level 1 é.dat")
            },
            "\(lines)")
        #expect(
            lines.contains {
                $0.hasPrefix("-rw-r--r--  1 0      0        1000 ") && $0.hasSuffix("./Contents/levels/level 1 é.dat")
            },
            "\(lines)")
    }

    @Test func gnuCpioListsOurPayload() throws {
        let directory = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let payload = try writeSamplePayload(in: directory)
        let result = try Support.run("gzip -dc \(Support.shellQuoted(payload)) | cpio -it --quiet")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == SampleContent.paths.map { $0 + "\n" }.joined())
        #expect(result.stderr.isEmpty, "\(result.stderr)")
    }

    @Test func bsdtarExtractsOurPayload() throws {
        let directory = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let payload = try writeSamplePayload(in: directory)
        let out = directory.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: false)
        let result = try Support.run("bsdtar -xf \(Support.shellQuoted(payload)) -C \(Support.shellQuoted(out.path))")
        #expect(result.status == 0, "\(result.stderr)")
        let data = try Data(contentsOf: out.appendingPathComponent("Contents/levels/level 1 é.dat"))
        #expect(Array(data) == SampleContent.pattern)
        #expect(
            try FileManager.default.destinationOfSymbolicLink(
                atPath: out.appendingPathComponent("Contents/current").path)
                == "levels/level 1 é.dat")
        #expect(Array(try Data(contentsOf: out.appendingPathComponent("ContentInfo.plist"))) == SampleContent.plist)
    }

    /// A content folder on disk: ContentInfo.plist, Contents/a.txt, Contents/sub/b.bin, a symlink.
    private func makeContentFolder(in directory: URL) throws -> URL {
        let root = directory.appendingPathComponent("content")
        let fm = FileManager.default
        try fm.createDirectory(at: root.appendingPathComponent("Contents/sub"), withIntermediateDirectories: true)
        try Data(SampleContent.plist).write(to: root.appendingPathComponent("ContentInfo.plist"))
        try Data("alpha\n".utf8).write(to: root.appendingPathComponent("Contents/a.txt"))
        try Data(SampleContent.pattern).write(to: root.appendingPathComponent("Contents/sub/b.bin"))
        try fm.createSymbolicLink(
            atPath: root.appendingPathComponent("Contents/link").path, withDestinationPath: "sub/b.bin")
        return root
    }

    private func readFile(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    @Test func readsAPayloadMadeByBsdtar() throws {
        let directory = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let root = try makeContentFolder(in: directory)
        let payload = directory.appendingPathComponent("Payload").path
        let made = try Support.run("bsdtar --format odc -czf \(Support.shellQuoted(payload)) .", in: root)
        #expect(made.status == 0, "\(made.stderr)")

        let entries = try Support.readAll(try readFile(payload))
        let byPath = Dictionary(uniqueKeysWithValues: entries.map { ($0.entry.path, $0) })
        #expect(
            Set(byPath.keys) == [
                ".", "./ContentInfo.plist", "./Contents", "./Contents/a.txt", "./Contents/sub",
                "./Contents/sub/b.bin", "./Contents/link",
            ])
        #expect(byPath["."]?.entry.kind == .directory)
        #expect(byPath["./Contents/sub"]?.entry.kind == .directory)
        #expect(byPath["./ContentInfo.plist"]?.data == SampleContent.plist)
        #expect(byPath["./Contents/a.txt"]?.data == Array("alpha\n".utf8))
        #expect(byPath["./Contents/sub/b.bin"]?.entry.kind == .file)
        #expect(byPath["./Contents/sub/b.bin"]?.entry.size == 1000)
        #expect(byPath["./Contents/sub/b.bin"]?.data == SampleContent.pattern)
        #expect(byPath["./Contents/link"]?.entry.kind == .symlink)
        #expect(byPath["./Contents/link"]?.entry.linkTarget == "sub/b.bin")
        #expect(entries.first?.entry.headerOffset == 0)
    }

    @Test func readsAPayloadMadeByGnuCpioWithAHardLink() throws {
        let directory = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let root = try makeContentFolder(in: directory)
        try FileManager.default.linkItem(
            atPath: root.appendingPathComponent("Contents/a.txt").path,
            toPath: root.appendingPathComponent("Contents/z.txt").path)
        let payload = directory.appendingPathComponent("Payload").path
        // Sorted so a.txt precedes its link z.txt; GNU cpio pads the archive to 512-byte blocks with NULs.
        let made = try Support.run(
            "find . | LC_ALL=C sort | cpio -o -H odc --quiet | gzip -n > \(Support.shellQuoted(payload))",
            in: root)
        #expect(made.status == 0, "\(made.stderr)")

        let entries = try Support.readAll(try readFile(payload))
        // GNU cpio drops the leading "./" of the names find prints.
        let expectedPaths: [String] = [
            ".", "ContentInfo.plist", "Contents", "Contents/a.txt", "Contents/link",
            "Contents/sub", "Contents/sub/b.bin", "Contents/z.txt",
        ]
        #expect(entries.map(\.entry.path) == expectedPaths)
        let first = try #require(entries.first { $0.entry.path == "Contents/a.txt" })
        let link = try #require(entries.first { $0.entry.path == "Contents/z.txt" })
        #expect(first.entry.kind == .file)
        #expect(first.entry.nlink == 2)
        #expect(link.entry.kind == .hardlink)
        #expect(link.entry.hardlinkTarget == "Contents/a.txt")
        #expect(link.entry.inode == first.entry.inode)
    }
}
