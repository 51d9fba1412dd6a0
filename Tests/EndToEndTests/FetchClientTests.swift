import Foundation
import IAPClient
import Testing

/// The download client through a real nginx: progress, pause and resume, cancel and resume, as
/// SKDownload offered them; and `iapkg fetch`'s exit statuses without a server.
@Suite(.serialized) struct FetchClientTests {
    static let product = "com.example.slow.fetch"
    static let size = 12 << 20

    /// A store with one version of `product` (a 12 MiB file sent at 8 MiB/s, and a small one).
    func publish(_ scratch: ScratchFolder) async throws -> (NginxServer, Data)? {
        let large = try await Self.store(scratch, product: Self.product, size: Self.size)
        guard let server = try NginxServer(root: scratch.at("srv"), scratch: scratch) else { return nil }
        return (server, large)
    }

    /// Publishes `product` into `scratch/srv`: `Contents/large.bin` (`size` random bytes, returned)
    /// and `Contents/small.txt`.
    static func store(_ scratch: ScratchFolder, product: String, size: Int) async throws -> Data {
        let large = randomBytes(size)
        let folder = try scratch.contentFolder("src", product: product, files: ["Contents/small.txt": "small\n"])
        try large.write(to: URL(fileURLWithPath: folder + "/Contents/large.bin"))
        try InProcessBuild.package(folder, to: scratch.at("p.pkg"), level: 1)
        let unpack = try await Harness.run(["iapkg", "unpack", scratch.at("p.pkg"), "--into", scratch.at("srv")])
        #expect(unpack.status == 0, "\(unpack.stderr)")
        return large
    }

    /// Waits until `bytes` have come, at most 30 s (a loaded machine starts the download late).
    static func waitFor(_ download: ContentDownload, bytes: UInt64) async {
        let deadline = Date().addingTimeInterval(30)
        while download.currentProgress.bytesDone < bytes && Date() < deadline {
            try? await Task.sleep(nanoseconds: 10_000_000)
        }
    }

    @Test func pauseStopsTheBytesAndResumeFinishes() async throws {
        let scratch = ScratchFolder()
        guard let (server, large) = try await publish(scratch) else { return }
        let updater = ContentUpdater(
            server: server.base, productIdentifier: Self.product, folder: URL(fileURLWithPath: scratch.at("app")))
        let download = updater.download()
        let watcher = Task { () -> [FetchProgress] in
            var seen: [FetchProgress] = []
            for await progress in download.progress { seen.append(progress) }
            return seen
        }
        await Self.waitFor(download, bytes: 2 << 20)
        download.pause()
        try await Task.sleep(nanoseconds: 300_000_000)
        let paused = download.currentProgress
        try await Task.sleep(nanoseconds: 700_000_000)
        #expect(paused.isPaused)
        #expect(download.currentProgress.bytesDone == paused.bytesDone)
        #expect(paused.bytesDone > 0 && paused.bytesDone < UInt64(Self.size))
        download.resume()
        let report = try await download.result()
        #expect(report.action == "installed" && report.version == "1.0" && report.filesFetched == 3)
        let installed = try Data(contentsOf: updater.contentsURL.appendingPathComponent("large.bin"))
        #expect(installed == large)
        let seen = await watcher.value
        #expect(seen.last?.bytesDone == seen.last?.bytesTotal)
        #expect(seen.contains { $0.secondsRemaining != nil && $0.bytesPerSecond > 0 })
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.bytesDone <= $1.bytesDone })
        _ = server
    }

    @Test func cancelKeepsWhatWasVerifiedForTheNextDownload() async throws {
        let scratch = ScratchFolder()
        guard let (server, large) = try await publish(scratch) else { return }
        let updater = ContentUpdater(
            server: server.base, productIdentifier: Self.product, folder: URL(fileURLWithPath: scratch.at("app")))
        let download = updater.download()
        await Self.waitFor(download, bytes: 4 << 20)
        download.cancel()
        await #expect(throws: FetchError.cancelled) { try await download.result() }
        #expect(updater.installedVersion == nil)
        let report = try await updater.update()
        #expect(report.bytesResumed >= 4 << 20)
        #expect(report.bytesFetched < UInt64(Self.size) - report.bytesResumed + 4096)
        #expect(try Data(contentsOf: updater.contentsURL.appendingPathComponent("large.bin")) == large)
        #expect(updater.installedVersion == "1.0")
        #expect(try await updater.checkForUpdate() == nil)
        _ = server
    }

    @Test func iapkgFetchInstallsThenHasNothingToDoWithJSONMatchingItsSchema() async throws {
        let scratch = ScratchFolder()
        guard let (server, large) = try await publish(scratch) else { return }
        let arguments = [
            "iapkg", "fetch", server.base.absoluteString, Self.product, "--into", scratch.at("app"), "--json",
        ]
        let first = try await Harness.run(arguments)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("Installed \(Self.product) 1.0"))
        try OutputSchemaTests.expectValid(first, "fetch.schema.json")
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.at("app/current/Contents/large.bin"))) == large)
        let second = try await Harness.run(arguments)
        #expect(second.status == 0 && second.stderr.contains("is up to date"))
        try OutputSchemaTests.expectValid(second, "fetch.schema.json")
    }

    @Test func exitStatusesWithoutAServer() async throws {
        let fetch = URL(fileURLWithPath: Harness.binary).deletingLastPathComponent().appendingPathComponent(
            "iapkg-fetch")
        let scratch = ScratchFolder()
        let usage = try await Harness.run([fetch.path, "ftp://x", "p", "--into", scratch.at("a")])
        #expect(usage.status == 64 && usage.stderr.contains("http"))
        let port = NginxServer.freePort()
        let down = try await Harness.run([
            fetch.path, "http://127.0.0.1:\(port)", "com.example.p", "--into", scratch.at("a"), "--attempts", "1",
        ])
        #expect(down.status == 2 && down.stderr.contains("127.0.0.1"))
        #expect(!FileManager.default.fileExists(atPath: scratch.at("a/current")))
    }
}
