import Foundation
import IAPSystem
import Testing

/// pbzx Payloads end to end: a package `iapkg build --payload-compression pbzx` writes (several
/// 16 MiB chunks, xz and stored) and one assembled here from the format's description (chunks made
/// by the system `xz`) are read by inspect, validate, unpack, diff and serve; a broken framing is a
/// finding with its rule and the byte offset in the package, never a crash or a hang.
@Suite(.onTestThreads) struct PbzxPackageTests {
    /// A big-endian u64.
    static func u64(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) } }

    /// `raw` as pbzx with `chunkSize`-byte chunks, each xz'd by the system `xz` except those in `stored`.
    static func pbzx(_ raw: [UInt8], chunkSize: Int, stored: Set<Int>, in scratch: ScratchFolder) throws -> [UInt8] {
        var out = Array("pbzx".utf8) + u64(UInt64(chunkSize))
        for (index, start) in stride(from: 0, to: raw.count, by: chunkSize).enumerated() {
            let piece = Array(raw[start..<min(start + chunkSize, raw.count)])
            var body = piece
            if !stored.contains(index) {
                try Data(piece).write(to: URL(fileURLWithPath: scratch.at("chunk")))
                let xz = try Harness.shell("xz -c -9 < chunk > chunk.xz", in: scratch.path)
                #expect(xz.status == 0, "\(xz.stderr)")
                body = Array(try Data(contentsOf: URL(fileURLWithPath: scratch.at("chunk.xz"))))
            }
            out += u64(UInt64(piece.count)) + u64(UInt64(body.count)) + body
        }
        return out
    }

    /// The items of a small product: nested folders, a symlink, text that spans several chunks.
    static let items: [CpioItem] = [
        .directory("."),
        .file("./ContentInfo.plist", text: Fixtures.plist(product: "com.example.pbzx", version: "1.2")),
        .directory("./Contents"), .directory("./Contents/levels"),
        .file("./Contents/levels/one.json", text: String(repeating: "{\"tile\": 1}\n", count: 900)),
        .file("./Contents/readme.txt", text: "hello\n"), .symlink("./Contents/latest.json", to: "levels/one.json"),
    ]

    /// Runs every reading command on `package`, whose content equals `folder`'s.
    static func readEverywhere(_ package: String, folder: String, product: String, in scratch: ScratchFolder) throws {
        let inspect = try Harness.run(["iapkg", "inspect", package, "--json"])
        #expect(inspect.status == 0, "\(inspect.stderr)")
        let report = try JSONSerialization.jsonObject(with: inspect.stdoutData) as? [String: Any]
        #expect(report?["compression"] as? String == "pbzx")
        #expect(report?["productIdentifier"] as? String == product)
        let validate = try Harness.run(["iapkg", "validate", package, "--strict"])
        #expect(validate.status == 0, "\(validate.stdout)\(validate.stderr)")
        let unpack = try Harness.run(["iapkg", "unpack", package, "--into", scratch.at("srv")])
        #expect(unpack.status == 0, "\(unpack.stderr)")
        let installed = try FileManager.default.destinationOfSymbolicLink(atPath: scratch.at("srv/\(product)/current"))
        let diff = try Harness.run(["iapkg", "diff", folder, package, "--json"])
        #expect(diff.status == 0, "\(diff.stderr)")
        let changes = try JSONSerialization.jsonObject(with: diff.stdoutData) as? [String: Any]
        #expect((changes?["changed"] as? [Any])?.isEmpty == true, "\(diff.stdout)")
        #expect((changes?["added"] as? [Any])?.isEmpty == true, "\(diff.stdout)")
        let back = try Harness.run(["iapkg", "diff", folder, scratch.at("srv/\(product)/\(installed)")])
        #expect((back.stdout + back.stderr).contains("0 added, 0 removed, 0 changed"), "\(back.stdout)")
        // serve: dropped into the incoming folder, accepted and installed.
        let incoming = scratch.at("incoming")
        try FileManager.default.createDirectory(atPath: incoming, withIntermediateDirectories: true)
        let serve = try ServeProcess(scratch, incoming: incoming, root: scratch.at("served"), extra: ["--strict"])
        try ServeCheck.drop(package, into: incoming, as: "dropped.pkg")
        #expect(ServeCheck.wait(seconds: 30) { serve.events.count >= 1 }, "\(serve.stderr)")
        #expect(serve.stop(SIGTERM) == 0, "\(serve.stderr)")
        #expect(serve.events.first?["outcome"] as? String == "accepted", "\(serve.events)")
        #expect(FileManager.default.fileExists(atPath: scratch.at("served/\(product)/current.json")))
    }

    @Test func aPackageAssembledFromTheFormatsDescriptionIsReadByEveryCommand() throws {
        let scratch = ScratchFolder()
        let raw = OdcCpio.bytes(Self.items)
        var product = HostileProduct(items: Self.items)
        product.payloadOverride = try Self.pbzx(raw, chunkSize: 4096, stored: [1], in: scratch)
        try product.write(to: scratch.at("assembled.pkg"))
        let folder = try scratch.contentFolder(
            "folder", product: "com.example.pbzx", version: "1.2",
            files: [
                "Contents/levels/one.json": String(repeating: "{\"tile\": 1}\n", count: 900),
                "Contents/readme.txt": "hello\n",
            ])
        try FileManager.default.createSymbolicLink(
            atPath: scratch.at("folder/Contents/latest.json"), withDestinationPath: "levels/one.json")
        try Self.readEverywhere(scratch.at("assembled.pkg"), folder: folder, product: "com.example.pbzx", in: scratch)
    }

    @Test func aPackageIapkgBuildsWithPbzxIsReadByEveryCommand() throws {
        let scratch = ScratchFolder()
        // 16 MiB of noise (a stored chunk), then text: three chunks, the last short.
        let folder = try scratch.contentFolder("pack", product: "com.example.pbzx.built", version: "2.0")
        let noise = try #require(FileHandle(forReadingAtPath: "/dev/urandom")).readData(ofLength: 16 << 20)
        try scratch.write("pack/Contents/noise.bin", noise)
        try scratch.write("pack/Contents/text.txt", String(repeating: "the harbour at dawn\n", count: 600_000))
        let package = scratch.at("built.pkg")
        let built = try Harness.run([
            "iapkg", "build", folder, "--payload-compression", "pbzx", "-o", package, "--source-date-epoch",
            "1700000000",
        ])
        #expect(built.status == 0, "\(built.stderr)")
        let again = try Harness.run([
            "iapkg", "build", folder, "--payload-compression", "pbzx", "-o", scratch.at("again.pkg"),
            "--source-date-epoch", "1700000000",
        ])
        #expect(again.status == 0)
        #expect(FileManager.default.contentsEqual(atPath: package, andPath: scratch.at("again.pkg")))
        // The chunks as the description says: a 16 MiB chunk size, the noise chunk stored as is.
        let extract = try Harness.shell("mkdir x && bsdtar -xf built.pkg -C x", in: scratch.path)
        #expect(extract.status == 0, "\(extract.stderr)")
        let payload = Array(try Data(contentsOf: URL(fileURLWithPath: scratch.at("x/pack.pkg/Payload"))))
        #expect(Array(payload.prefix(12)) == Array("pbzx".utf8) + Self.u64(16 << 20))
        #expect(Array(payload[12..<28]) == Self.u64(16 << 20) + Self.u64(16 << 20))
        try Self.readEverywhere(package, folder: folder, product: "com.example.pbzx.built", in: scratch)
        let tree = try Harness.run(["iapkg", "build", folder, "--layout", "tree", "--payload-compression", "pbzx"])
        #expect(tree.status == 64, "\(tree.stderr)")
    }

    @Test func brokenFramingIsAFindingWithItsRuleAndOffsetInEveryCommand() throws {
        let scratch = ScratchFolder()
        let raw = OdcCpio.bytes(Self.items)
        let good = try Self.pbzx(raw, chunkSize: 4096, stored: [], in: scratch)
        let firstLength = Int(good[20..<28].reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
        var oversized = good
        oversized[12..<20] = Self.u64(4097)[...]
        var garbled = good
        garbled[28 + firstLength / 2] ^= 0x55
        let cases: [(String, [UInt8], String, Int?)] = [
            ("header", Array("pbzx".utf8) + Self.u64(0) + [UInt8](repeating: 0, count: 16), "shape-pbzx-header", 4),
            ("chunk-size", oversized, "shape-pbzx-chunk-size", 12),
            ("truncated", Array(good.prefix(28 + firstLength + 9)), "shape-pbzx-truncated", 28 + firstLength),
            ("decode", garbled, "shape-pbzx-chunk-decode", nil),
            (
                "encoding", Array(good.prefix(12)) + Self.u64(100) + Self.u64(50) + [UInt8](repeating: 7, count: 50),
                "shape-pbzx-chunk-encoding", 12
            ),
            ("trailing", good + [0, 0, 0], "shape-pbzx-trailing", good.count),
        ]
        for (name, payload, rule, payloadOffset) in cases {
            var product = HostileProduct(items: Self.items)
            product.payloadOverride = payload
            let package = scratch.at("\(name).pkg")
            try product.write(to: package)
            let validate = try Harness.run(["iapkg", "validate", package, "--json"])
            #expect(validate.status == 1, "\(name): \(validate.stdout)")
            let document = try JSONSerialization.jsonObject(with: validate.stdoutData) as? [String: Any]
            let inputs = document?["inputs"] as? [[String: Any]]
            let findings = (inputs?.first?["findings"] as? [[String: Any]]) ?? []
            let finding = try #require(findings.first { $0["rule"] as? String == rule }, "\(name): \(findings)")
            #expect(finding["entry"] as? String == "content.pkg/Payload")
            let message = finding["message"] as? String ?? ""
            #expect(message.contains("rebuild the package"), "\(message)")
            let offset = try #require(finding["offset"] as? Int, "\(name)")
            // The Payload's first byte in the package, found by its magic.
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: package)))
            let start = try #require(
                (0..<(bytes.count - 4)).first { bytes[$0..<($0 + 4)].elementsEqual(payload.prefix(4)) })
            if let payloadOffset { #expect(offset == start + payloadOffset, "\(name): \(message)") }
            #expect(offset >= start && offset <= start + payload.count, "\(name)")
            for command in [["inspect", package], ["unpack", package, "--into", scratch.at("srv")]] {
                let result = try Harness.run(["iapkg"] + command)
                #expect(result.status == 1, "\(name) \(command[0]): \(result.stderr)")
                #expect(result.stdout.contains(rule) || result.stderr.contains(rule), "\(name) \(command[0])")
            }
            let diff = try Harness.run(["iapkg", "diff", package, package])
            #expect(diff.status == 1, "\(name) diff: \(diff.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.at("srv/com.example.pbzx")))
    }
}
