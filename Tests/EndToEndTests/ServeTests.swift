import Foundation
import Testing

/// `iapkg serve`: packages dropped into a folder are handled exactly once, through kills.
@Suite(.serialized) struct ServeTests {
    func build(_ scratch: ScratchFolder, product: String, version: String, name: String, randomBytes: Int = 0) throws
        -> String
    {
        let folder = try scratch.contentFolder(
            "src-\(name)", product: product, version: version,
            files: [
                "Contents/data.txt": "\(product) \(version)\n",
                "Contents/art/pic.bin": String(repeating: name, count: 2000),
            ])
        if randomBytes > 0 {  // incompressible: handling takes long enough for kills to land mid-work
            let noise = try #require(FileHandle(forReadingAtPath: "/dev/urandom")).readData(ofLength: randomBytes)
            try scratch.write("src-\(name)/Contents/art/noise.bin", noise)
        }
        let pkg = scratch.at("pkgs/\(name).pkg")
        try FileManager.default.createDirectory(atPath: scratch.at("pkgs"), withIntermediateDirectories: true)
        try InProcessBuild.package(folder, to: pkg)
        return pkg
    }

    @Test func acceptsRejectsKeepsReportsAndStopsCleanly() async throws {
        let scratch = ScratchFolder()
        let incoming = scratch.at("incoming")
        let root = scratch.at("srv")
        try FileManager.default.createDirectory(atPath: incoming, withIntermediateDirectories: true)
        let good = try build(scratch, product: "com.example.serve.a", version: "1.0", name: "good")
        // Waiting before the start: taken at start.
        try ServeCheck.drop(good, into: incoming, as: "early.pkg")
        try scratch.write("incoming/broken.pkg", "not a package")
        try scratch.write("incoming/upload.pkg.part", "half")
        try scratch.write("incoming/.hidden.pkg", "hidden")
        await Harness.pause(0.6)  // older than --settle-seconds
        let serve = try ServeProcess(scratch, incoming: incoming, root: root, extra: ["--jobs", "2"])
        #expect(await ServeCheck.wait(seconds: 20) { serve.events.count >= 2 }, "\(serve.stderr)")
        try ServeCheck.drop(good, into: incoming, as: "early.pkg")  // the same name again: a new name in accepted/
        #expect(await ServeCheck.wait(seconds: 20) { serve.events.count >= 3 }, "\(serve.stderr)")
        #expect(await serve.stop(SIGTERM) == 0, "\(serve.stderr)")

        #expect(
            ServeCheck.names(incoming + "/accepted") == [
                "early-1.pkg", "early-1.pkg.report.json", "early.pkg", "early.pkg.report.json",
            ])
        #expect(ServeCheck.names(incoming + "/rejected") == ["broken.pkg", "broken.pkg.report.json"])
        #expect(ServeCheck.names(incoming + "/.processing") == [])
        #expect(FileManager.default.fileExists(atPath: incoming + "/upload.pkg.part"))
        #expect(FileManager.default.fileExists(atPath: incoming + "/.hidden.pkg"))
        let report = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: incoming + "/rejected/broken.pkg.report.json")))
                as? [String: Any])
        #expect(report["schemaVersion"] as? Int == 1 && report["valid"] as? Bool == false)
        let inputs = try #require(report["inputs"] as? [[String: Any]])
        #expect((inputs.first?["findings"] as? [[String: Any]])?.first?["rule"] as? String == "xar-magic")
        let outcomes = serve.events.compactMap { $0["outcome"] as? String }.sorted()
        #expect(outcomes == ["accepted", "accepted", "rejected"])
        #expect(serve.events.allSatisfy { $0["time"] is String && $0["seconds"] is Double && $0["findings"] is Int })
        #expect(serve.stderr.contains("stopped"))
        #expect(try ServeCheck.manifestProblems(root + "/com.example.serve.a/1.0") == [])
    }

    @Test func exactlyOnceThroughTwentyKills() async throws {
        let scratch = ScratchFolder()
        let incoming = scratch.at("incoming")
        let root = scratch.at("srv")
        try FileManager.default.createDirectory(atPath: incoming, withIntermediateDirectories: true)
        let count = 44
        // Eleven products, versions rising: each product's versions arrive in order.
        var packages: [(path: String, name: String, product: String, version: String)] = []
        for i in 0..<count {
            let product = "com.example.kill.p\(i % 11)"
            let version = "1.\(i / 11)"
            packages.append(
                (
                    try build(scratch, product: product, version: version, name: "k\(i)", randomBytes: 1 << 21),
                    "k\(i).pkg", product, version
                ))
        }
        var next = 0
        var interrupted = 0
        var generator = SystemRandomNumberGenerator()
        for round in 0..<20 {
            let serve = try ServeProcess(
                scratch, incoming: incoming, root: root, extra: ["--jobs", "2"], tag: "round\(round)")
            // Two packages a round, each only after its product's previous version was handled.
            for _ in 0..<2 where next < count {
                let (path, name, product, _) = packages[next]
                _ = await ServeCheck.wait(seconds: 10) {
                    packages[..<next].filter { $0.product == product }.allSatisfy {
                        FileManager.default.fileExists(atPath: incoming + "/accepted/" + $0.name)
                    }
                }
                try ServeCheck.drop(path, into: incoming, as: name)
                next += 1
            }
            await Harness.pause(Double(UInt32.random(in: 20_000...300_000, using: &generator)) / 1_000_000)
            await serve.stop(SIGKILL)
            let staging = (0..<11).contains {
                ServeCheck.names(root + "/com.example.kill.p\($0)").contains { $0.hasPrefix(".staging-") }
            }
            if !ServeCheck.names(incoming + "/.processing").isEmpty || staging { interrupted += 1 }
        }
        #expect(interrupted >= 1, "no kill landed while a package was in hand")
        let last = try ServeProcess(scratch, incoming: incoming, root: root, extra: ["--jobs", "2"], tag: "last")
        while next < count {
            let (path, name, product, _) = packages[next]
            _ = await ServeCheck.wait(seconds: 20) {
                packages[..<next].filter { $0.product == product }.allSatisfy {
                    FileManager.default.fileExists(atPath: incoming + "/accepted/" + $0.name)
                }
            }
            try ServeCheck.drop(path, into: incoming, as: name)
            next += 1
        }
        let done = await ServeCheck.wait(seconds: 60) {
            ServeCheck.names(incoming).filter { $0.hasSuffix(".pkg") }.isEmpty
                && ServeCheck.names(incoming + "/.processing").isEmpty
        }
        #expect(done, "\(last.stderr)")
        #expect(await last.stop(SIGTERM) == 0)

        // Exactly once: every package in accepted/ under its own name, with its report; nothing else.
        let expected = packages.flatMap { [$0.name, $0.name + ".report.json"] }.sorted()
        #expect(ServeCheck.names(incoming + "/accepted") == expected)
        #expect(ServeCheck.names(incoming + "/rejected") == [])
        // Nothing half-installed: every product at its newest version, every version matching its manifest.
        for p in 0..<11 {
            let folder = root + "/com.example.kill.p\(p)"
            let names = ServeCheck.names(folder)
            #expect(
                names == [".lock", ".retention", "1.0", "1.1", "1.2", "1.3", "current", "current.json"], "\(names)")
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder + "/current") == "1.3")
            for version in ["1.0", "1.1", "1.2", "1.3"] {
                #expect(try ServeCheck.manifestProblems(folder + "/" + version) == [])
            }
        }
    }
}

/// SIGTERM while packages are in flight.
@Suite struct ServeStopTests {
    @Test func sigtermFinishesWhatItHoldsAndLeavesTheRest() async throws {
        let scratch = ScratchFolder()
        let incoming = scratch.at("incoming")
        let root = scratch.at("srv")
        try FileManager.default.createDirectory(atPath: incoming, withIntermediateDirectories: true)
        var names: [String] = []
        for i in 0..<12 {
            let folder = try scratch.contentFolder(
                "s\(i)", product: "com.example.stop.p\(i)", version: "1.0",
                files: ["Contents/big.bin": String(repeating: "\(i)", count: 300_000)])
            #expect(try await Harness.run(["iapkg", "build", folder, "-o", scratch.at("s\(i).pkg")]).status == 0)
            names.append("s\(i).pkg")
        }
        let serve = try ServeProcess(scratch, incoming: incoming, root: root, extra: ["--jobs", "2"])
        #expect(await ServeCheck.wait(seconds: 10) { serve.stderr.contains("watching") })
        for name in names { try ServeCheck.drop(scratch.at(name), into: incoming, as: name) }
        await Harness.pause(Double(150_000) / 1_000_000)
        #expect(await serve.stop(SIGTERM) == 0, "\(serve.stderr)")
        // Each package is either handled (in accepted/, with its report, installed) or untouched.
        #expect(ServeCheck.names(incoming + "/.processing") == [])
        let accepted = Set(ServeCheck.names(incoming + "/accepted"))
        for (i, name) in names.enumerated() {
            let handled = accepted.contains(name)
            #expect(handled != FileManager.default.fileExists(atPath: incoming + "/" + name), "\(name)")
            #expect(handled == accepted.contains(name + ".report.json"))
            let product = root + "/com.example.stop.p\(i)"
            #expect(handled == FileManager.default.fileExists(atPath: product + "/current.json"), "\(name)")
            if handled { #expect(try ServeCheck.manifestProblems(product + "/1.0") == []) }
            #expect(ServeCheck.names(product).allSatisfy { !$0.hasPrefix(".staging-") })
        }
        #expect(serve.events.count == accepted.count / 2)
    }

    @Test func versionsOfOneProductAtOnceAreInstalledOneAtATime() async throws {
        let scratch = ScratchFolder()
        let incoming = scratch.at("incoming")
        let root = scratch.at("srv")
        try FileManager.default.createDirectory(atPath: incoming, withIntermediateDirectories: true)
        let product = "com.example.same"
        for i in 1...6 {
            let folder = try scratch.contentFolder(
                "v\(i)", product: product, version: "1.\(i)",
                files: ["Contents/data.bin": String(repeating: "\(i)", count: 200_000)])
            #expect(try await Harness.run(["iapkg", "build", folder, "-o", scratch.at("v\(i).pkg")]).status == 0)
        }
        let serve = try ServeProcess(
            scratch, incoming: incoming, root: root, extra: ["--jobs", "3", "--allow-downgrade"])
        #expect(await ServeCheck.wait(seconds: 10) { serve.stderr.contains("watching") })
        for i in 1...6 { try ServeCheck.drop(scratch.at("v\(i).pkg"), into: incoming, as: "v\(i).pkg") }
        try ServeCheck.drop(scratch.at("v6.pkg"), into: incoming, as: "again.pkg")
        #expect(await ServeCheck.wait(seconds: 30) { serve.events.count == 7 }, "\(serve.stderr)")
        #expect(await serve.stop(SIGTERM) == 0)
        #expect(serve.events.allSatisfy { $0["outcome"] as? String == "accepted" }, "\(serve.stdout)")
        let folder = root + "/" + product
        #expect(
            ServeCheck.names(folder) == [
                ".lock", ".retention", "1.1", "1.2", "1.3", "1.4", "1.5", "1.6", "current", "current.json",
            ])
        // --activate newest
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder + "/current") == "1.6")
        for i in 1...6 { #expect(try ServeCheck.manifestProblems(folder + "/1.\(i)") == []) }
    }
}
