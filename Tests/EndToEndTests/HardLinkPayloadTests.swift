import BomKit
import Foundation
import IAPRules
import IAPSystem
import Testing

/// Hard links in a product archive's Payload, as each cpio format means them: odc sends data with
/// every link, newc only with the last. Every link's own bytes are judged, and unpack writes them.
@Suite(.onTestThreads) struct HardLinkPayloadTests {
    let scratch = ScratchFolder()

    /// A content folder holding a hard-linked pair Contents/a and Contents/z with `bytes`.
    func linkedFolder(_ name: String, _ bytes: [UInt8]) throws -> String {
        let folder = try scratch.contentFolder(
            name, product: "com.example.test", version: "1.0", files: ["Contents/readme.txt": "hello\n"])
        try Data(bytes).write(to: URL(fileURLWithPath: folder + "/Contents/a"))
        try FileManager.default.linkItem(atPath: folder + "/Contents/a", toPath: folder + "/Contents/z")
        return folder
    }

    /// A product package whose Payload is `payload` (gzip'd cpio) and whose Bom lists `items`.
    func product(_ name: String, payload: [UInt8], items: [CpioItem]) throws -> String {
        var package = HostileProduct(items: items)
        package.payloadOverride = payload
        let path = scratch.at(name + ".pkg")
        try package.write(to: path)
        return path
    }

    /// The Bom-side description of the linked folder: every link a file with the shared bytes.
    func items(_ bytes: [UInt8]) -> [CpioItem] {
        [
            .directory("."),
            .file("./ContentInfo.plist", text: Fixtures.plist(product: "com.example.test", version: "1.0")),
            .directory("./Contents"), .file("./Contents/a", bytes), .file("./Contents/readme.txt", text: "hello\n"),
            .file("./Contents/z", bytes),
        ]
    }

    @Test func aNewcPairMadeByBsdtarValidatesAndUnpacksWithItsData() throws {
        let bytes = Array("shared level data\n".utf8)
        let folder = try linkedFolder("newc-src", bytes)
        let payload = scratch.at("newc-payload.gz")
        let made = try Harness.shell("bsdtar --format newc -czf '\(payload)' .", in: folder)
        #expect(made.status == 0, "\(made.stderr)")
        let listing = try Harness.shell("bsdtar -tvf '\(payload)'")
        // libarchive's newc writer sends the data with the last link: the first says size 0.
        #expect(listing.stdout.contains(" 0 ") && listing.stdout.contains("./Contents/a"), "\(listing.stdout)")
        let path = try product(
            "newc-links", payload: Array(try Data(contentsOf: URL(fileURLWithPath: payload))), items: items(bytes))
        let run = try Validate.expectWarning(path, Rule.linkHard)
        #expect(!run.rules.contains("shape-bom-mismatch"), "\(run.dump)")

        let root = scratch.at("srv")
        let unpacked = try Harness.run(["iapkg", "unpack", path, "--into", root])
        #expect(unpacked.status == 0, "\(unpacked.stderr)")
        let version = root + "/com.example.test/1.0/Contents/"
        #expect(try Data(contentsOf: URL(fileURLWithPath: version + "a")) == Data(bytes))
        #expect(try Data(contentsOf: URL(fileURLWithPath: version + "z")) == Data(bytes))
    }

    @Test func aBomSizeTheNewcCarrierContradictsIsReported() throws {
        let bytes = Array("shared level data\n".utf8)
        let folder = try linkedFolder("newc-bad", bytes)
        let payload = scratch.at("newc-bad.gz")
        #expect(try Harness.shell("bsdtar --format newc -czf '\(payload)' .", in: folder).status == 0)
        var listed = items(bytes)
        listed[3] = .file("./Contents/a", bytes + [0x0a])
        let path = try product(
            "newc-bad", payload: Array(try Data(contentsOf: URL(fileURLWithPath: payload))), items: listed)
        try Validate.expectError(path, Rule.shapeBomMismatch, entry: "Contents/a")
    }

    @Test(arguments: ["newc", "odc"])
    func gnuCpioLinksCarryingAnELFAreRefused(format: String) throws {
        let folder = try linkedFolder("gnu-\(format)", CodeSamples.elf)
        let payload = scratch.at("gnu-\(format).gz")
        let made = try Harness.shell(
            "find . | LC_ALL=C sort | cpio -o -H \(format) --quiet | gzip -n > '\(payload)'", in: folder)
        #expect(made.status == 0, "\(made.stderr)")
        let path = try product(
            "gnu-\(format)", payload: Array(try Data(contentsOf: URL(fileURLWithPath: payload))),
            items: items(CodeSamples.elf))
        // GNU cpio drops the leading "./" (a shape finding of its own); the ELF is found on the
        // link that carries it: the last one for newc, both for odc.
        let run = try Validate.expectError(path, Rule.execElf, entry: "Contents/z")
        let onFirst = run.findings.contains { $0.rule == "exec-elf" && ($0.entry ?? "").hasSuffix("Contents/a") }
        #expect(onFirst == (format == "odc"), "\(run.dump)")
    }

    @Test func odcLinksWithAndWithoutDataUnpackAsCopies() throws {
        // a and b both carry the bytes (as GNU cpio's odc writes them); c is a link with no data.
        let bytes = Array("level one\n".utf8)
        var items: [CpioItem] = []
        for (name, data) in [("a", bytes), ("b", bytes), ("c", [])] {
            var item = CpioItem.file("./Contents/" + name, data)
            item.ino = 90
            item.nlink = 3
            items.append(item)
        }
        var package = HostileProduct(files: [("readme.txt", Array("hello\n".utf8))])
        package.items += items
        package.editBom = { entries in
            entries.map {
                var e = $0
                if e.path == "./Contents/c" {
                    e.size = UInt64(bytes.count)
                    e.checksum = BomChecksum.checksum(of: bytes)
                }
                return e
            }
        }
        let path = scratch.at("odc-links.pkg")
        try package.write(to: path)
        try Validate.expectWarning(path, Rule.linkHard)
        let root = scratch.at("srv-odc")
        let unpacked = try Harness.run(["iapkg", "unpack", path, "--into", root])
        #expect(unpacked.status == 0, "\(unpacked.stderr)")
        for name in ["a", "b", "c"] {
            #expect(
                try Data(contentsOf: URL(fileURLWithPath: root + "/com.example.test/1.0/Contents/" + name))
                    == Data(bytes), "\(name)")
        }
        // The manifest, hashed while writing, lists the copies as they are on disk.
        #expect(try ServeCheck.manifestProblems(root + "/com.example.test/1.0") == [])
    }
}
