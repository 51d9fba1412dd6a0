import Foundation
import Testing

/// `iapkg init --from NAME.xcodeproj`: the content folder a project's target describes, which then
/// builds the package the project builds; nothing is written for a project with errors.
@Suite(.onTestThreads) struct XcodeInitTests {
    @Test func theFolderBuildsWhatTheProjectBuilds() throws {
        let scratch = ScratchFolder()
        let project = try XcodeProjectTests.everyForm(scratch)
        try FileManager.default.createDirectory(atPath: scratch.at("out"), withIntermediateDirectories: true)
        let made = try Harness.run(["iapkg", "init", "--from", project], in: scratch.at("out"))
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stderr.contains("Created ContentPack/ from"), "\(made.stderr)")
        let fromFolder = try Harness.run(
            ["iapkg", "build", scratch.at("out/ContentPack"), "-o", scratch.at("folder.pkg")] + XcodeProjectTests.epoch)
        let fromProject = try Harness.run(
            ["iapkg", "build", project, "-o", scratch.at("project.pkg")] + XcodeProjectTests.epoch)
        #expect(fromFolder.status == 0 && fromProject.status == 0, "\(fromFolder.stderr)\(fromProject.stderr)")
        #expect(FileManager.default.contentsEqual(atPath: scratch.at("folder.pkg"), andPath: scratch.at("project.pkg")))
        #expect(
            FileManager.default.contentsEqual(
                atPath: scratch.at("out/ContentPack/ContentInfo.plist"),
                andPath: scratch.at("proj/Content/ContentInfo.plist")))
        // Never over a folder that holds something; a named, empty one is filled.
        let again = try Harness.run(["iapkg", "init", "--from", project], in: scratch.at("out"))
        #expect(again.status == 1 && again.stderr.contains("not an empty folder"), "\(again.stderr)")
        try FileManager.default.createDirectory(atPath: scratch.at("out/named"), withIntermediateDirectories: true)
        let named = try Harness.run(["iapkg", "init", "--from", project, "named"], in: scratch.at("out"))
        #expect(named.status == 0, "\(named.stderr)")
        #expect(FileManager.default.fileExists(atPath: scratch.at("out/named/Contents/Levels/deep/two.json")))
    }

    @Test func aProjectWithErrorsWritesNothing() throws {
        let scratch = ScratchFolder()
        let project = try XcodeProjectTests.everyForm(scratch)
        try FileManager.default.removeItem(atPath: scratch.at("proj/Shared/extra.json"))
        try FileManager.default.createDirectory(atPath: scratch.at("out"), withIntermediateDirectories: true)
        let made = try Harness.run(["iapkg", "init", "--from", project, "pack"], in: scratch.at("out"))
        #expect(made.status == 1)
        #expect(made.stderr.contains("error[xcode-file-missing] Contents/extra.json"), "\(made.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.at("out")).isEmpty)
        let usage = try Harness.run(["iapkg", "init", "--from", project, "a", "b"])
        #expect(usage.status == 64)
    }
}
