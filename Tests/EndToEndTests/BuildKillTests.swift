import Foundation
import Testing

/// `build` killed with `kill -9` at moments spread over its run: the output path holds the old
/// package or a complete new one, never a partial one, and no temporary file is left beside it.
@Suite(.onTestThreads) struct BuildKillTests {
    @Test func killedBuildsLeaveTheOldPackageAndNoTemporaryFile() throws {
        let scratch = ScratchFolder()
        let folder = try scratch.contentFolder("content")
        let noise = FileHandle(forReadingAtPath: "/dev/urandom")?.readData(ofLength: 24 << 20) ?? Data()
        try noise.write(to: URL(fileURLWithPath: folder + "/Contents/noise.bin"))
        let output = scratch.at("out.pkg")
        #expect(try Harness.run(["iapkg", "build", folder, "-o", output]).status == 0)
        let old = try Data(contentsOf: URL(fileURLWithPath: output))
        try Data("second version\n".utf8).write(to: URL(fileURLWithPath: folder + "/Contents/readme.txt"))

        let start = Date()
        #expect(try Harness.run(["iapkg", "build", folder, "-o", scratch.at("timing.pkg")]).status == 0)
        let duration = Date().timeIntervalSince(start)
        for round in 0..<10 {
            let process = try Harness.start(["iapkg", "build", folder, "-o", output])
            Thread.sleep(forTimeInterval: duration * Double(round) / 10.0 * 1.1)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let now = try Data(contentsOf: URL(fileURLWithPath: output))
            if now != old {
                // A new package is in place only when complete.
                #expect(try Validate.run(output).status == 0, "round \(round): a replaced package must be complete")
            }
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter {
                $0.contains(".iapkg-")
            }
            #expect(leftovers.isEmpty, "round \(round): \(leftovers)")
        }
    }
}

/// The package `build` writes is mode 0644 whatever the umask (it is written unnamed, then linked).
@Suite(.onTestThreads) struct BuildOutputModeTests {
    @Test func outputIs0644UnderAStrictUmask() throws {
        let scratch = ScratchFolder()
        let folder = try scratch.contentFolder("content")
        let output = scratch.at("strict.pkg")
        let result = try Harness.run(["sh", "-c", "umask 077 && '\(Harness.binary)' build '\(folder)' -o '\(output)'"])
        #expect(result.status == 0, "\(result.stderr)")
        let mode = try FileManager.default.attributesOfItem(atPath: output)[.posixPermissions] as? Int
        #expect(mode == 0o644)
    }
}
