import Foundation
import Testing

/// What `serve` does to the store: one version whatever its spelling, and pruning that never pulls
/// a version from under a reader (the current, the recently current, an operator's rollback).
@Suite(.serialized) struct ServeStoreTests {
    static let product = "com.example.store"

    @Test func twoSpellingsAreOneVersion() async throws {
        let scratch = ScratchFolder()
        let incoming = scratch.at("incoming")
        let root = scratch.at("srv")
        try FileManager.default.createDirectory(atPath: incoming, withIntermediateDirectories: true)
        let short = try ServeCheck.package(scratch, product: Self.product, version: "3.50", name: "short")
        let long = try ServeCheck.package(
            scratch, product: Self.product, version: "3.50.0", name: "long",
            files: ["Contents/data.txt": "\(Self.product) 3.50\n"])
        let serve = try ServeProcess(scratch, incoming: incoming, root: root)
        try ServeCheck.drop(short, into: incoming, as: "short.pkg")
        #expect(await ServeCheck.wait(seconds: 10) { serve.events.count == 1 }, "\(serve.stderr)")
        try ServeCheck.drop(long, into: incoming, as: "long.pkg")
        #expect(await ServeCheck.wait(seconds: 10) { serve.events.count == 2 }, "\(serve.stderr)")
        #expect(await serve.stop() == 0)
        // Its ContentInfo.plist spells the version otherwise: different content under 3.50, refused.
        let events = serve.events
        #expect(events[1]["outcome"] as? String == "rejected", "\(serve.stdout)")
        let message = events[1]["message"] as? String ?? ""
        #expect(message.contains("already installed as 3.50 with different content"), "\(message)")
        #expect(!message.contains("--force"))
        #expect(ServeCheck.versions(root, Self.product) == ["3.50"])
        #expect(ServeCheck.current(root, Self.product) == "3.50")
        let activated = try await Harness.run(["iapkg", "activate", root, Self.product, "3.50.0"])
        #expect(activated.status == 0, "\(activated.stderr)")
    }

    /// An app downloads the rolled-back 1.1 in a loop while newer versions arrive with `--keep 2`:
    /// no read fails; re-delivering 1.2 and a version between leave the rollback current; a version
    /// newer than every installed one ends it; 1.1 stays for --keep-for after it stops being current.
    @Test func aRollbackIsNeverPulledFromUnderAReader() async throws {
        let scratch = ScratchFolder()
        let incoming = scratch.at("incoming")
        let root = scratch.at("srv")
        try FileManager.default.createDirectory(atPath: incoming, withIntermediateDirectories: true)
        var pkgs: [String: String] = [:]
        for version in ["1.0", "1.1", "1.2", "1.1.5", "1.3", "1.4", "1.5", "1.6"] {
            pkgs[version] = try ServeCheck.package(
                scratch, product: Self.product, version: version, name: "v\(version)",
                files: [
                    "Contents/data.txt": "\(version)\n",
                    "Contents/art/a.bin": String(repeating: version, count: 20_000),
                ])
        }
        let serve = try ServeProcess(scratch, incoming: incoming, root: root, extra: ["--keep", "2"])
        func publish(_ version: String, as name: String, expecting count: Int) async throws {
            try ServeCheck.drop(pkgs[version]!, into: incoming, as: name)
            #expect(await ServeCheck.wait(seconds: 10) { serve.events.count == count }, "\(serve.stderr)")
        }
        try await publish("1.0", as: "a.pkg", expecting: 1)
        try await publish("1.1", as: "b.pkg", expecting: 2)
        try await publish("1.2", as: "c.pkg", expecting: 3)
        let rollback = try await Harness.run(["iapkg", "activate", root, Self.product, "1.1"])
        #expect(rollback.status == 0, "\(rollback.stderr)")

        let listed = try await Harness.run(["iapkg", "list", root])
        #expect(listed.stdout.hasPrefix("\(Self.product) (current: 1.1, pinned by activate)"), "\(listed.stdout)")
        let listing = try await Harness.run(["iapkg", "list", root, "--json"])
        #expect(String(decoding: listing.stdoutData, as: UTF8.self).contains("\"pinned\" : \"1.1\""))
        try OutputSchemaTests.expectValid(listing, "list.schema.json")

        let folder = root + "/" + Self.product + "/1.1"
        let reader = ReaderLoop(files: [folder + "/Contents/data.txt", folder + "/Contents/art/a.bin"])
        try await publish("1.2", as: "again.pkg", expecting: 4)  // re-delivered: current stays
        try await publish("1.1.5", as: "between.pkg", expecting: 5)  // not newer than every installed one
        #expect(ServeCheck.current(root, Self.product) == "1.1")
        try await publish("1.3", as: "d.pkg", expecting: 6)  // newer than all: the rollback ends
        #expect(ServeCheck.current(root, Self.product) == "1.3")
        try await publish("1.4", as: "e.pkg", expecting: 7)
        try await publish("1.5", as: "f.pkg", expecting: 8)
        let (reads, failures) = reader.stop()
        #expect(await serve.stop() == 0)
        #expect(ServeCheck.events(serve, "accepted").count == 8, "\(serve.stdout)")
        #expect(reads > 0 && failures.isEmpty, "\(reads) reads, failures: \(failures.prefix(3))")
        #expect(ServeCheck.current(root, Self.product) == "1.5")
        // Kept beyond --keep 2: every version current within --keep-for (one day); 1.1.5, never
        // current, went as soon as it was beyond --keep.
        #expect(ServeCheck.versions(root, Self.product) == ["1.0", "1.1", "1.2", "1.3", "1.4", "1.5"])
        // With --keep-for 0, --keep 2 keeps just that many.
        let pruned = try await Harness.run([
            "iapkg", "unpack", pkgs["1.6"]!, "--into", root, "--keep", "2", "--keep-for", "0",
        ])
        #expect(pruned.status == 0, "\(pruned.stderr)")
        #expect(ServeCheck.versions(root, Self.product) == ["1.5", "1.6"])
    }
}

/// Reads files over and over on a thread of its own until stopped; counts reads and failures.
final class ReaderLoop: @unchecked Sendable {
    private let lock = NSLock()
    private var running = true
    private var reads = 0
    private var failures: [String] = []
    private let done = DispatchSemaphore(value: 0)

    init(files: [String]) {
        Thread.detachNewThread { [self] in
            while lock.withLock({ running }) {
                for file in files {
                    let ok = FileManager.default.contents(atPath: file) != nil
                    lock.withLock {
                        reads += 1
                        if !ok { failures.append(file) }
                    }
                }
            }
            done.signal()
        }
    }

    /// Stops the loop; returns the reads made and the files that could not be read.
    func stop() -> (Int, [String]) {
        lock.withLock { running = false }
        done.wait()
        return lock.withLock { (reads, failures) }
    }
}
