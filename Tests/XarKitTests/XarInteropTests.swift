import Foundation
import IAPSystem
import IAPTestSupport
import Testing
import XarKit

/// bsdtar (libarchive) reads what we write, and we read what it writes.
@Suite(.enabled(if: bsdtarPath != nil, "bsdtar (libarchive-tools) is not installed"))
struct XarInteropTests {
    let directory: ScratchFolder
    init() throws { directory = ScratchFolder() }

    @Test func bsdtarListsAndExtractsWhatWeWrite() throws {
        let bsdtar = try #require(bsdtarPath)
        let archivePath = directory.path + "/sample.pkg"
        try SampleTree.write(to: archivePath, in: directory)
        let listing = try run(bsdtar, ["-tf", archivePath]).split(separator: "\n").map(String.init)
        #expect(
            listing == [
                "Distribution", "payload.pkg", "payload.pkg/Bom", "payload.pkg/Payload", "payload.pkg/Empty",
                "payload.pkg/Link",
            ])
        let out = directory.path + "/out"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
        _ = try run(bsdtar, ["-xf", archivePath, "-C", out])
        #expect(try directory.read("out/Distribution") == SampleTree.distribution)
        #expect(try directory.read("out/payload.pkg/Bom") == SampleTree.bom)
        #expect(try directory.read("out/payload.pkg/Payload") == SampleTree.payload)
        #expect(try directory.read("out/payload.pkg/Empty") == [])
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: out + "/payload.pkg/Link") == "Bom")
        let attributes = try FileManager.default.attributesOfItem(atPath: out + "/payload.pkg/Bom")
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o644)
    }

    @Test func weReadWhatBsdtarWrites() throws {
        let bsdtar = try #require(bsdtarPath)
        let source = directory.path + "/src"
        let manager = FileManager.default
        try manager.createDirectory(atPath: source + "/Contents/sub", withIntermediateDirectories: true)
        try directory.write(Array("<plist/>\n".utf8), to: "src/ContentInfo.plist")
        let big = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        try directory.write(big, to: "src/Contents/sub/big.bin")
        try directory.write([], to: "src/Contents/empty")
        try manager.createSymbolicLink(atPath: source + "/Contents/link", withDestinationPath: "sub/big.bin")
        try manager.linkItem(atPath: source + "/ContentInfo.plist", toPath: source + "/Contents/hard")
        let archivePath = directory.path + "/bsdtar.pkg"
        _ = try run(bsdtar, ["--format", "xar", "-cf", archivePath, "-C", source, "."])

        let archive = try XarArchive.open(path: archivePath)
        #expect(archive.errorRules == [])
        // libarchive 3.6's xar writer leaves 20 bytes after the last data (a copy of the first 20 bytes
        // of the compressed TOC) that no range covers; that exact artifact is recognised, not reported.
        #expect(archive.findings.filter { $0.severity == .warning }.isEmpty)
        let tail = try directory.read("bsdtar.pkg").suffix(20)
        #expect(Array(tail) == Array(try directory.read("bsdtar.pkg")[28..<48]))
        #expect(archive.toc.checksumCount == 1 && archive.toc.checksum?.style == "sha1")
        #expect(
            Set(archive.toc.files.map(\.path)) == [
                "ContentInfo.plist", "Contents", "Contents/sub", "Contents/sub/big.bin",
                "Contents/empty", "Contents/link", "Contents/hard",
            ])
        let bigFile = try archive.requireFile("Contents/sub/big.bin")
        #expect(bigFile.type == .file && bigFile.mode == 0o644 && bigFile.data?.encoding == .zlib)
        #expect(try archive.readAll(bigFile, maxBytes: 1 << 20) == big)
        let link = try archive.requireFile("Contents/link")
        #expect(link.type == .symlink && link.linkTarget == "sub/big.bin")
        #expect(try archive.requireFile("Contents/sub").type == .directory)
        // bsdtar writes a hard-linked pair as <type link="original"> (with the data) and <type link="ID">.
        let pair = archive.toc.files.filter { $0.path == "ContentInfo.plist" || $0.path == "Contents/hard" }
        #expect(pair.allSatisfy { $0.type == .hardlink })
        let original = try #require(pair.first { $0.hardLink == .original })
        #expect(pair.contains { $0.hardLink == .target(original.id ?? 0) })
        #expect(try archive.readAll(original, maxBytes: 100) == Array("<plist/>\n".utf8))
        #expect(archive.verifyAllData() == [])
    }
}
