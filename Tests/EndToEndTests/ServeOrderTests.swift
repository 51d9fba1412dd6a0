import Foundation
import Testing

/// A product's versions are installed lowest first, one at a time: a burst renamed in one after
/// another, and versions dropped while the service was down, through a `kill -9`.
@Suite(.serialized) struct ServeOrderTests {
    static let product = "com.example.order"

    @Test func aBurstOf200VersionsThenTenPendingAtARestart() async throws {
        let scratch = ScratchFolder()
        let incoming = scratch.at("incoming")
        let root = scratch.at("srv")
        try FileManager.default.createDirectory(atPath: incoming, withIntermediateDirectories: true)
        // 200 versions; 40 under a sanitizer, whose build makes each of the 200 builds several times slower.
        let count = Sanitizer.rounds(200)
        let burst = try (1...count).map {
            try ServeCheck.package(scratch, product: Self.product, version: "1.\($0)", name: "b\($0)")
        }
        let serve = try ServeProcess(
            scratch, incoming: incoming, root: root, extra: ["--jobs", "2", "--keep", "3", "--keep-for", "0"],
            tag: "burst")
        #expect(await ServeCheck.wait(seconds: 10) { serve.stderr.contains("watching") })
        for (i, pkg) in burst.enumerated() { try ServeCheck.drop(pkg, into: incoming, as: "b\(i + 1).pkg") }
        #expect(await ServeCheck.wait(seconds: 90) { serve.events.count >= count }, "\(serve.stderr)")
        #expect(await serve.stop() == 0)
        #expect(ServeCheck.events(serve, "rejected").isEmpty, "\(ServeCheck.events(serve, "rejected"))")
        #expect(ServeCheck.events(serve, "accepted").count == count)
        #expect(ServeCheck.current(root, Self.product) == "1.\(count)")
        #expect(ServeCheck.versions(root, Self.product) == (count - 2...count).map { "1.\($0)" })

        // Ten versions dropped while the service is down, in shuffled order; the service is killed
        // soon after it starts and started again.
        let pending = try (0...9).map {
            try ServeCheck.package(scratch, product: Self.product, version: "2.\($0)", name: "p\($0)")
        }
        for i in (0...9).shuffled() { try ServeCheck.drop(pending[i], into: incoming, as: "p\(i).pkg") }
        let killed = try ServeProcess(scratch, incoming: incoming, root: root, extra: ["--jobs", "2"], tag: "killed")
        _ = await ServeCheck.wait(seconds: 10) { !killed.events.isEmpty }
        await killed.stop(SIGKILL)
        let last = try ServeProcess(scratch, incoming: incoming, root: root, extra: ["--jobs", "2"], tag: "last")
        let done = await ServeCheck.wait(seconds: 60) {
            ServeCheck.names(incoming).filter { $0.hasSuffix(".pkg") }.isEmpty
                && ServeCheck.names(incoming + "/.processing").isEmpty
        }
        #expect(done, "\(last.stderr)")
        #expect(await last.stop() == 0)
        for run in [killed, last] {
            #expect(ServeCheck.events(run, "rejected").isEmpty, "\(run.stdout)")
            let versions = ServeCheck.events(run, "accepted").compactMap { $0["version"] as? String }
            let numbers = versions.map { Int($0.dropFirst(2)) ?? -1 }
            #expect(numbers == numbers.sorted(), "installed out of order: \(versions)")
        }
        let accepted = ServeCheck.names(incoming + "/accepted").filter { $0.hasPrefix("p") && $0.hasSuffix(".pkg") }
        #expect(accepted.count == 10)
        #expect(ServeCheck.current(root, Self.product) == "2.9")
    }

    /// Ten versions renamed in highest first, one after another, while the service runs. The burst
    /// is one burst whatever the machine's load: the ten are copied in under hidden names first, and
    /// the service is held (SIGSTOP) while they are renamed, so it sees all ten arrive within its
    /// gathering time (a copy each between renames took longer than that under a sanitizer on a busy
    /// machine, and 3.0 came after 3.1–3.9 were installed: a downgrade, rightly refused).
    @Test func aBurstInReverseOrderIsInstalledLowestFirst() async throws {
        let scratch = ScratchFolder()
        let incoming = scratch.at("incoming")
        let root = scratch.at("srv")
        try FileManager.default.createDirectory(atPath: incoming, withIntermediateDirectories: true)
        let pkgs = try (0...9).map {
            try ServeCheck.package(scratch, product: Self.product, version: "3.\($0)", name: "r\($0)")
        }
        let serve = try ServeProcess(scratch, incoming: incoming, root: root, extra: ["--jobs", "3"])
        #expect(await ServeCheck.wait(seconds: 10) { serve.stderr.contains("watching") })
        let hidden = try (0...9).map { try ServeCheck.stage(pkgs[$0], into: incoming, as: "r\($0).pkg") }
        kill(serve.process.processIdentifier, SIGSTOP)
        for i in (0...9).reversed() { try ServeCheck.renameIn(hidden[i], as: "r\(i).pkg") }
        kill(serve.process.processIdentifier, SIGCONT)
        #expect(await ServeCheck.wait(seconds: 30) { serve.events.count == 10 }, "\(serve.stderr)")
        #expect(await serve.stop() == 0)
        let versions = ServeCheck.events(serve, "accepted").compactMap { $0["version"] as? String }
        #expect(versions == (0...9).map { "3.\($0)" }, "\(serve.stdout)")
        #expect(ServeCheck.current(root, Self.product) == "3.9")
    }
}
