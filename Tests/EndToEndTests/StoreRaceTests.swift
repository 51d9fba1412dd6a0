import Foundation
import Testing

/// Eight processes unpacking the same version and different versions of one product at once, with
/// `activate` and `list` racing them: every version complete or absent, `current` always pointing
/// to a complete version, no stray temporary folder.
@Suite struct StoreRaceTests {
    static let product = "com.example.race"

    @Test func eightUnpacksWithActivateAndListRacingThem() async throws {
        let scratch = ScratchFolder()
        let versions = ["1.1", "1.2", "1.3", "1.4"]
        var sources: [String: [String: Data]] = [:]
        var fileCounts: [String: Int] = [:]
        var packages: [String: String] = [:]
        for (index, version) in versions.enumerated() {
            var files: [String: String] = [:]
            for file in 0..<(20 + index * 10) {
                files["Contents/f\(file % 4)/n\(file).txt"] = String(repeating: "\(version) \(file)\n", count: 2000)
            }
            let folder = try scratch.contentFolder("v\(version)", product: Self.product, version: version, files: files)
            try scratch.write("v\(version)/Contents/big.bin", randomBytes(1 << 20))
            packages[version] = scratch.at("v\(version).pkg")
            let built = try await Harness.run(["iapkg", "build", folder, "-o", packages[version]!])
            #expect(built.status == 0, "\(built.stderr)")
            sources[version] = try ScratchFolder.snapshotOf(folder)
            fileCounts[version] = sources[version]!.keys.filter { !$0.hasSuffix("/") }.count
        }
        let root = scratch.at("srv")
        let productFolder = root + "/" + Self.product

        // Two processes per version, started together, in an order that mixes versions.
        let order = versions + versions.reversed()
        let unpacks = try order.map {
            try RunningProcess(["unpack", packages[$0]!, "--into", root, "--allow-downgrade"], scratch: scratch)
        }
        var checks = 0
        while unpacks.contains(where: { $0.process.isRunning }) || checks < 3 {
            checks += 1
            // `current`, when there, names a version whose folder is complete.
            if let current = try? FileManager.default.destinationOfSymbolicLink(atPath: productFolder + "/current") {
                #expect(try ScratchFolder.snapshotOf(productFolder + "/" + current) == sources[current])
            }
            guard FileManager.default.fileExists(atPath: productFolder) else {  // no store yet
                try await Task.sleep(nanoseconds: 5_000_000)
                continue
            }
            let listing = try await Harness.run(["iapkg", "list", root, "--json"])
            #expect(listing.status == 0, "\(listing.stderr)")
            if let json = try? JSONSerialization.jsonObject(with: listing.stdoutData) as? [String: Any],
                let product = (json["products"] as? [[String: Any]])?.first,
                let listed = product["versions"] as? [[String: Any]]
            {
                for entry in listed {
                    let version = entry["version"] as? String ?? "?"
                    #expect(entry["files"] as? Int == fileCounts[version], "\(version) listed incomplete")
                }
            }
            let target = versions.randomElement()!
            let activated = try await Harness.run(["iapkg", "activate", root, Self.product, target])
            // Refused (1) while that version is not installed yet; never a failure.
            #expect(activated.status == 0 || activated.status == 1, "\(activated.stderr)")
        }
        for (process, version) in zip(unpacks, order) {
            let status = process.finish()
            #expect(status == 0, "unpack \(version): \(process.output)")
        }

        for version in versions {
            #expect(try ScratchFolder.snapshotOf(productFolder + "/" + version) == sources[version])
        }
        let current = try FileManager.default.destinationOfSymbolicLink(atPath: productFolder + "/current")
        #expect(versions.contains(current))
        let names = try FileManager.default.contentsOfDirectory(atPath: productFolder).sorted()
        #expect(names == [".lock", ".retention"] + versions + ["current", "current.json"])
        let activated = try await Harness.run(["iapkg", "activate", root, Self.product, "1.4"])
        #expect(activated.status == 0, "\(activated.stderr)")
    }

    /// `list` while `unpack --keep 1` deletes the version before: the version being deleted is
    /// left out of the listing, never an error (it was exit 2, "open folder …: No such file or directory").
    @Test func listWhileKeepRemovesAnOldVersion() async throws {
        let scratch = ScratchFolder()
        var files: [String: String] = [:]
        for index in 0..<600 { files["Contents/d\(index / 3)/f\(index).txt"] = "\(index)\n" }
        let root = scratch.at("srv")
        var listings = 0
        for minor in 0..<6 {
            let version = "2.\(minor)"
            let folder = try scratch.contentFolder("v\(version)", product: Self.product, version: version, files: files)
            let package = scratch.at("v\(version).pkg")
            #expect(try await Harness.run(["iapkg", "build", folder, "-o", package]).status == 0)
            let unpack = try RunningProcess(
                ["unpack", package, "--into", root, "--keep", "1", "--keep-for", "0"], scratch: scratch)
            repeat {
                guard FileManager.default.fileExists(atPath: root) else {
                    try await Task.sleep(nanoseconds: 5_000_000)  // not a busy wait for the first version
                    continue
                }
                let listing = try await Harness.run(["iapkg", "list", root])
                listings += 1
                #expect(listing.status == 0, "\(listing.stderr)")
            } while unpack.process.isRunning
            let status = unpack.finish()
            #expect(status == 0, "unpack \(version): \(unpack.output)")
        }
        let remaining = try FileManager.default.contentsOfDirectory(atPath: root + "/" + Self.product)
        #expect(remaining.sorted() == [".lock", "2.5", "current", "current.json"])
        #expect(listings >= 6)
    }
}
