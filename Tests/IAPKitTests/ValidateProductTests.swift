import BomKit
import Foundation
import IAPKitTestSupport
import IAPRules
import IAPSystem
import IAPTestSupport
import Testing

/// Product-archive shape rules (PackageFormat.md §5 a, §6 "Shape"): Distribution, the component's three
/// files, the Payload's paths, and a Bom that lists exactly what the Payload holds.
@Suite(.onTestThreads) struct ValidateProductTests {
    let scratch = ScratchFolder()

    func write(_ name: String, _ package: HostileProduct) throws -> String {
        let path = scratch.at(name + ".pkg")
        try package.write(to: path)
        return path
    }

    @Test func handMadeProductIsClean() throws {
        let run = try Validate.expectClean(try write("good", HostileProduct()))
        #expect(run.document?.inputs.first?.shape == "product")
        #expect(run.document?.inputs.first?.productIdentifier == "com.example.test")
    }

    @Test func missingDistribution() throws {
        var package = HostileProduct()
        package.withoutDistribution = true
        try Validate.expectError(try write("nodist", package), Rule.shapeProductLayout, entry: "Distribution")
    }

    @Test func distributionNamingAnotherComponent() throws {
        var package = HostileProduct()
        package.editXar = { xar in
            xar.nodes[0] = .file("Distribution", ProductArchiveDocumentsText.distribution(referencing: "other.pkg"))
        }
        try Validate.expectError(try write("otherdist", package), Rule.shapeDistribution, entry: "Distribution")
    }

    @Test func scriptsInTheComponent() throws {
        var package = HostileProduct()
        package.extraComponentNodes = [
            .directory("Scripts", [.file("postinstall", text: "#!/bin/sh\nrm -rf /\n", mode: "0755")])
        ]
        try Validate.expectError(try write("scripts", package), Rule.shapeProductLayout, entry: "content.pkg/Scripts")
    }

    @Test func secondComponentOrExtraTopEntry() throws {
        var package = HostileProduct()
        package.editXar = { xar in xar.nodes.append(.file("Resources", text: "x")) }
        try Validate.expectError(try write("extra", package), Rule.shapeProductLayout, entry: "Resources")
    }

    @Test func componentWithoutBom() throws {
        var package = HostileProduct()
        package.editXar = { xar in xar.nodes[1].children.removeAll { $0.name == "Bom" } }
        try Validate.expectError(try write("nobom", package), Rule.shapeProductLayout, entry: "content.pkg/Bom")
    }

    @Test func payloadPathWithoutDotSlash() throws {
        var package = HostileProduct()
        package.items.append(.file("Contents/bare.txt", text: "x"))
        try Validate.expectError(try write("prefix", package), Rule.shapePayloadPrefix, entry: "Contents/bare.txt")
    }

    @Test func bomMissingAnEntry() throws {
        var package = HostileProduct(files: [("a.txt", Array("a\n".utf8)), ("b.txt", Array("b\n".utf8))])
        package.editBom = { $0.filter { $0.path != "./Contents/b.txt" } }
        let run = try Validate.expectError(
            try write("bom-missing", package), Rule.shapeBomMismatch, entry: "Contents/b.txt")
        #expect(run.findings.filter { $0.rule == "shape-bom-mismatch" }.count == 1, "\(run.dump)")
    }

    @Test func bomListsWhatThePayloadLacks() throws {
        var package = HostileProduct()
        package.editBom = {
            $0 + [BomEntry(path: "./Contents/ghost.txt", kind: .file, mode: 0o100644, size: 3, checksum: 1)]
        }
        try Validate.expectError(try write("bom-ghost", package), Rule.shapeBomMismatch, entry: "Contents/ghost.txt")
    }

    @Test func bomWrongSize() throws {
        var package = HostileProduct()
        package.editBom = { entries in
            entries.map {
                var e = $0
                if e.path == "./Contents/readme.txt" { e.size += 1 }
                return e
            }
        }
        let run = try Validate.expectError(
            try write("bom-size", package), Rule.shapeBomMismatch, entry: "Contents/readme.txt")
        #expect(run.findings.contains { $0.message.contains("size (Bom: 7, Payload: 6)") }, "\(run.dump)")
    }

    @Test func bomWrongChecksum() throws {
        var package = HostileProduct()
        package.editBom = { entries in
            entries.map {
                var e = $0
                if e.path == "./Contents/readme.txt" { e.checksum ^= 1 }
                return e
            }
        }
        let run = try Validate.expectError(
            try write("bom-crc", package), Rule.shapeBomMismatch, entry: "Contents/readme.txt")
        #expect(run.findings.contains { $0.message.contains("checksum") }, "\(run.dump)")
    }

    @Test func unreadableBomPayloadAndPackageInfo() throws {
        var bom = HostileProduct()
        bom.editXar = { xar in xar.nodes[1].children[0] = .file("Bom", text: "BOMStore but not really") }
        try Validate.expectError(try write("bad-bom", bom), Rule.shapeBom, entry: "content.pkg/Bom")

        var payload = HostileProduct()
        payload.payloadOverride = Array("not gzip at all".utf8)
        try Validate.expectError(try write("bad-payload", payload), Rule.shapePayload, entry: "content.pkg/Payload")

        var info = HostileProduct()
        info.editXar = { xar in xar.nodes[1].children[2] = .file("PackageInfo", text: "<pkg-info") }
        try Validate.expectError(try write("bad-info", info), Rule.shapePackageinfo, entry: "content.pkg/PackageInfo")
    }

    /// The Bom declares a 100 GiB file the Payload's few bytes cannot hold: refused before decoding.
    @Test func honestBombInTheBom() throws {
        var package = HostileProduct()
        package.editBom = { entries in
            entries.map {
                var e = $0
                if e.path == "./Contents/readme.txt" { e.size = 100 << 30 }
                return e
            }
        }
        let run = try Validate.expectError(
            try write("bom-bomb", package), Rule.sizeDeclaredBomb, entry: "content.pkg/Payload")
        #expect(run.seconds < Validate.refusedBeforeDecodingSeconds, "took \(run.seconds) s")
    }

    /// The Bom says 6 bytes; the Payload holds 64 MiB of zeros: decoding stops near the declared total.
    @Test func lyingPayloadStopsAtTheDeclaredTotal() throws {
        var package = HostileProduct()
        package.items.append(.file("./Contents/zeros.bin", [UInt8](repeating: 0, count: 64 << 20)))
        package.editBom = { entries in
            entries.map {
                var e = $0
                if e.path == "./Contents/zeros.bin" { e.size = 6 }
                return e
            }
        }
        try Validate.expectError(
            try write("liar", package), Rule.sizeDeclaredBomb, entry: "content.pkg/Payload")
    }

    @Test func aPayloadInAnotherCompressionIsNamed() throws {
        var package = HostileProduct()
        package.payloadOverride = [0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x58] + Array(repeating: 0, count: 100)
        let path = scratch.at("zstd.pkg")
        try package.write(to: path)
        let run = try Validate.expectError(path, Rule.shapePayload, entry: "content.pkg/Payload")
        let message = run.findings.first { $0.rule == "shape-payload" }?.message ?? ""
        #expect(message.contains("28 b5 2f fd 00 58 (zstd?)"), "\(run.dump)")
    }
}

/// Distribution text pointing at an arbitrary component.
enum ProductArchiveDocumentsText {
    static func distribution(referencing component: String) -> [UInt8] {
        Array(
            """
            <?xml version="1.0" encoding="utf-8"?>
            <installer-gui-script minSpecVersion="1">
                <pkg-ref id="x" version="0" installKBytes="1">#\(component)</pkg-ref>
            </installer-gui-script>
            """.utf8)
    }
}
