import Foundation
import IAPClient
import Testing

/// Small files are written straight at their place in the staging folder (no part file, no
/// rename): what an earlier run left at that place is replaced, never written through, since it
/// may be a hard link to a file of the installed version the app is reading.
@Suite struct FetchStagingTests {
    static let product = "com.example.staging.links"

    /// Publishes `version` of the product, its `Contents/a.txt` holding `text`, into `scratch/srv`.
    func publish(_ scratch: ScratchFolder, version: String, text: String) async throws {
        let folder = try scratch.contentFolder(
            "src-" + version, product: Self.product, version: version, files: ["Contents/a.txt": text])
        try InProcessBuild.package(folder, to: scratch.at(version + ".pkg"), level: 1)
        let unpack = try await Harness.run([
            "iapkg", "unpack", scratch.at(version + ".pkg"), "--into", scratch.at("srv"),
        ])
        #expect(unpack.status == 0, "\(unpack.stderr)")
    }

    @Test func aHardLinkAnEarlierRunLeftInTheStagingFolderIsReplacedNotWrittenThrough() async throws {
        let scratch = ScratchFolder()
        try await publish(scratch, version: "1.0", text: "one\n")
        guard let server = try NginxServer(root: scratch.at("srv"), scratch: scratch) else { return }
        let app = scratch.at("app")
        let updater = ContentUpdater(
            server: server.base, productIdentifier: Self.product, folder: URL(fileURLWithPath: app))
        #expect(try await updater.update().version == "1.0")

        // 1.1 changes a.txt; the staging folder of 1.1 already holds, at a.txt, a hard link to 1.0's.
        try await publish(scratch, version: "1.1", text: "two, longer\n")
        let pointer = try JSONDecoder().decode(
            CurrentPointer.self,
            from: Data(contentsOf: URL(fileURLWithPath: scratch.at("srv/\(Self.product)/current.json"))))
        let staged = app + "/.partial/stage-" + pointer.manifestSHA256 + "/Contents"
        try FileManager.default.createDirectory(atPath: staged, withIntermediateDirectories: true)
        try FileManager.default.linkItem(atPath: app + "/versions/1.0/Contents/a.txt", toPath: staged + "/a.txt")

        let report = try await updater.update()
        #expect(report.version == "1.1" && report.filesFetched >= 1)
        #expect(try String(contentsOfFile: app + "/current/Contents/a.txt", encoding: .utf8) == "two, longer\n")
        // The previous version, kept beside the new one, still holds its own bytes.
        #expect(try String(contentsOfFile: app + "/versions/1.0/Contents/a.txt", encoding: .utf8) == "one\n")
    }
}
