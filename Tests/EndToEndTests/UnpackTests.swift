import Foundation
import Testing

/// `iapkg unpack`, `list` and `activate` as a server uses them.
@Suite(.serialized, .onTestThreads) struct UnpackTests {
    static let product = "com.example.unpack"

    /// Builds version `version` of a small content folder; returns the package path and the folder.
    func package(_ scratch: ScratchFolder, _ version: String, extra: [String: String] = [:], big: Int = 0) throws -> (
        String, String
    ) {
        var files = ["Contents/level.json": "{\"v\": \"\(version)\"}\n", "Contents/art/readme.txt": "art\n"]
        for (k, v) in extra { files[k] = v }
        let folder = try scratch.contentFolder("src-\(version)", product: Self.product, version: version, files: files)
        try FileManager.default.createSymbolicLink(
            atPath: folder + "/Contents/latest.json", withDestinationPath: "level.json")
        if big > 0 {
            for i in 0..<4 {
                let bytes = try Fixtures.randomBytes(big / 4)
                try scratch.write("src-\(version)/Contents/media/clip\(i).bin", Data(bytes))
            }
        }
        let pkg = scratch.at("v\(version).pkg")
        try InProcessBuild.package(folder, to: pkg)
        return (pkg, folder)
    }

    func productFolder(_ scratch: ScratchFolder) -> String { scratch.at("srv/\(Self.product)") }

    func current(_ scratch: ScratchFolder) -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: productFolder(scratch) + "/current")
    }

    func same(_ installed: String, _ source: String) throws -> Bool {
        try ScratchFolder.snapshotOf(installed) == ScratchFolder.snapshotOf(source)
    }

    @Test func installsVersionsSideBySideAndSwitchesCurrent() throws {
        let scratch = ScratchFolder()
        let (v10, src10) = try package(scratch, "1.0")
        let (v11, src11) = try package(scratch, "1.1", extra: ["Contents/new.txt": "new in 1.1\n"])
        let root = scratch.at("srv")

        var result = try Harness.run(["iapkg", "unpack", v10, "--into", root])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(current(scratch) == "1.0")
        result = try Harness.run(["iapkg", "unpack", v11, "--into", root])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(current(scratch) == "1.1")
        #expect(try same(productFolder(scratch) + "/1.0", src10))
        #expect(try same(productFolder(scratch) + "/1.1", src11))

        // Modes are normalised.
        let attrs = try FileManager.default.attributesOfItem(
            atPath: productFolder(scratch) + "/1.1/Contents/level.json")
        #expect((attrs[.posixPermissions] as? Int) == 0o644)

        // Same package again: a no-op.
        result = try Harness.run(["iapkg", "unpack", v11, "--into", root])
        #expect(result.status == 0)
        #expect(result.stdout.contains("already installed"))

        // Roll back, list, roll forward.
        result = try Harness.run(["iapkg", "activate", root, Self.product, "1.0"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(current(scratch) == "1.0")
        let listing = try Harness.run(["iapkg", "list", root, "--json"])
        let json = try #require(try JSONSerialization.jsonObject(with: listing.stdoutData) as? [String: Any])
        let products = try #require(json["products"] as? [[String: Any]])
        #expect(products.first?["current"] as? String == "1.0")
        #expect(
            (products.first?["versions"] as? [[String: Any]])?.compactMap { $0["version"] as? String } == [
                "1.0", "1.1",
            ])
        #expect(try Harness.run(["iapkg", "activate", root, Self.product, "7.0"]).status == 1)
        #expect(try Harness.run(["iapkg", "activate", root, Self.product, "1.1"]).status == 0)

        // A downgrade is refused and changes nothing.
        try FileManager.default.removeItem(atPath: productFolder(scratch) + "/1.0")
        result = try Harness.run(["iapkg", "unpack", v10, "--into", root])
        #expect(result.status == 1)
        #expect(result.stderr.contains("--allow-downgrade"))
        #expect(!FileManager.default.fileExists(atPath: productFolder(scratch) + "/1.0"))
        #expect(
            try Harness.run(["iapkg", "unpack", v10, "--into", root, "--allow-downgrade", "--no-activate"]).status == 0)
        #expect(current(scratch) == "1.1")

        // --keep 1 prunes the oldest, never the current one.
        result = try Harness.run(["iapkg", "unpack", v11, "--into", root, "--keep", "1", "--keep-for", "0"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try visibleNames(productFolder(scratch)) == ["1.1", "current", "current.json"])
    }

    @Test func differentContentUnderTheSameVersionNeedsForce() throws {
        let scratch = ScratchFolder()
        let (first, _) = try package(scratch, "2.0")
        let root = scratch.at("srv")
        #expect(try Harness.run(["iapkg", "unpack", first, "--into", root]).status == 0)
        let other = try scratch.contentFolder(
            "changed", product: Self.product, version: "2.0", files: ["Contents/level.json": "changed\n"])
        let changed = scratch.at("changed.pkg")
        #expect(try Harness.run(["iapkg", "build", other, "-o", changed]).status == 0)
        var result = try Harness.run(["iapkg", "unpack", changed, "--into", root])
        #expect(result.status == 1)
        #expect(result.stderr.contains("--force"))
        result = try Harness.run(["iapkg", "unpack", changed, "--into", root, "--force"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try same(productFolder(scratch) + "/2.0", other))
        #expect(try visibleNames(productFolder(scratch)) == ["2.0", "current", "current.json"])
    }

    @Test func concurrentUnpacksOfDifferentVersionsAllSucceed() async throws {
        let scratch = ScratchFolder()
        var packages: [(String, String)] = []
        for minor in 1...8 {
            packages.append(
                try package(
                    scratch, "1.\(minor)", extra: ["Contents/n.txt": String(repeating: "\(minor)", count: 5000)]))
        }
        let root = scratch.at("srv")
        let results = try await withThrowingTaskGroup(of: Int32.self) { group in
            for (pkg, _) in packages {
                group.addTask { try Harness.run(["iapkg", "unpack", pkg, "--into", root, "--no-activate"]).status }
            }
            return try await group.reduce(into: [Int32]()) { $0.append($1) }
        }
        #expect(results == [Int32](repeating: 0, count: 8))
        for (index, (_, source)) in packages.enumerated() {
            #expect(try same(productFolder(scratch) + "/1.\(index + 1)", source))
        }
        #expect(try visibleNames(productFolder(scratch)).count == 8)
        #expect(try await Harness.run(["iapkg", "activate", root, Self.product, "1.8"]).status == 0)
    }

    @Test func killedAtAnyMomentLosesNothing() throws {
        let scratch = ScratchFolder()
        let (v1, src1) = try package(scratch, "1.0")
        let (v2, src2) = try package(scratch, "2.0", big: 24 << 20)
        let root = scratch.at("srv")
        #expect(try Harness.run(["iapkg", "unpack", v1, "--into", root]).status == 0)

        // How long a whole unpack takes, to spread the kills over it.
        let timing = ScratchFolder()
        let start = Date()
        #expect(try Harness.run(["iapkg", "unpack", v2, "--into", timing.at("srv")]).status == 0)
        let duration = Date().timeIntervalSince(start)

        for round in 0..<20 {
            let process = try Harness.start(["iapkg", "unpack", v2, "--into", root])
            Thread.sleep(forTimeInterval: duration * Double(round) / 20.0 * 1.1)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            // The earlier version is intact, and current points at a complete version.
            #expect(try same(productFolder(scratch) + "/1.0", src1), "round \(round)")
            let now = current(scratch)
            #expect(now == "1.0" || now == "2.0", "round \(round)")
            if now == "2.0" { #expect(try same(productFolder(scratch) + "/2.0", src2), "round \(round)") }
            if FileManager.default.fileExists(atPath: productFolder(scratch) + "/2.0") {
                #expect(
                    try same(productFolder(scratch) + "/2.0", src2), "round \(round): a visible 2.0 must be complete")
                try FileManager.default.removeItem(atPath: productFolder(scratch) + "/2.0")
                _ = try Harness.run(["iapkg", "activate", root, Self.product, "1.0"])
            }
        }
        let rerun = try Harness.run(["iapkg", "unpack", v2, "--into", root])
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(try same(productFolder(scratch) + "/2.0", src2))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: productFolder(scratch)).filter {
                $0.hasPrefix(".staging")
            }.isEmpty)
    }

    @Test func fullDiskGivesACleanErrorAndLeavesNothing() throws {
        let scratch = ScratchFolder()
        let (v1, src1) = try package(scratch, "1.0")
        let (v2, _) = try package(scratch, "2.0", big: 4 << 20)
        let root = scratch.at("srv")
        #expect(try Harness.run(["iapkg", "unpack", v1, "--into", root]).status == 0)

        // A file-size limit makes the write itself fail part-way (EFBIG), whoever runs the test.
        if FaultConditions.fileSizeLimitIsUsable {
            let limited = try Harness.shell(
                "ulimit -f 1000; exec '\(Harness.binary)' unpack '\(v2)' --into '\(root)'")
            #expect(limited.status == 2, "\(limited.stderr)")
            #expect(limited.stderr.contains("error"))
        }
        #expect(try visibleNames(productFolder(scratch)) == ["1.0", "current", "current.json"])
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: productFolder(scratch)).filter {
                $0.hasPrefix(".staging")
            }.isEmpty)
        #expect(try same(productFolder(scratch) + "/1.0", src1))
        #expect(current(scratch) == "1.0")

        // A really full file system, where the test may mount one (root).
        let small = scratch.at("small")
        try FileManager.default.createDirectory(atPath: small, withIntermediateDirectories: true)
        guard getuid() == 0, try Harness.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", small]).status == 0
        else { return }
        defer { _ = try? Harness.run(["umount", small]) }
        let full = try Harness.run(["iapkg", "unpack", v2, "--into", small + "/srv"])
        #expect(full.status == 2, "\(full.stderr)")
        #expect(full.stderr.contains("space") || full.stderr.contains("No space"), "\(full.stderr)")
        #expect(try visibleNames(small + "/srv/\(Self.product)").isEmpty)
    }

    func visibleNames(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasPrefix(".") }.sorted()
    }
}
