import Foundation
import Testing

/// `iapkg serve` takes a file only when its writer is done, and refuses or skips odd entries of
/// the drop folder without following them, each said once, in log lines a name cannot forge.
@Suite(.serialized) struct ServeIntakeTests {
    /// A writer that holds the file open and pauses far longer than --settle-seconds, through a
    /// `kill -9` and a restart of the service (the start-up scan finds the file still open).
    @Test func aSlowWriterIsWaitedForThroughARestart() async throws {
        let scratch = ScratchFolder()
        let incoming = scratch.at("incoming")
        let root = scratch.at("srv")
        try FileManager.default.createDirectory(atPath: incoming, withIntermediateDirectories: true)
        let pkg = try ServeCheck.package(
            scratch, product: "com.example.slow", version: "1.0", name: "slow",
            files: ["Contents/big.txt": String(repeating: "slow upload ", count: 50_000)])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: pkg))
        let first = try ServeProcess(scratch, incoming: incoming, root: root, tag: "first")
        #expect(await ServeCheck.wait(seconds: 10) { first.stderr.contains("watching") })
        _ = FileManager.default.createFile(atPath: incoming + "/slow.pkg", contents: nil)
        let writer = try FileHandle(forWritingTo: URL(fileURLWithPath: incoming + "/slow.pkg"))
        writer.write(bytes.prefix(bytes.count / 3))
        await Harness.pause(2)  // 4x --settle-seconds, two rescans
        #expect(FileManager.default.fileExists(atPath: incoming + "/slow.pkg"), "\(first.stderr)")
        await first.stop(SIGKILL)
        writer.write(bytes[(bytes.count / 3)..<(2 * bytes.count / 3)])
        let second = try ServeProcess(scratch, incoming: incoming, root: root, tag: "second")
        #expect(await ServeCheck.wait(seconds: 10) { second.stderr.contains("watching") })
        await Harness.pause(2)
        #expect(FileManager.default.fileExists(atPath: incoming + "/slow.pkg"), "\(second.stderr)")
        #expect(second.events.isEmpty, "\(second.stdout)")
        writer.write(bytes[(2 * bytes.count / 3)...])
        try writer.close()
        #expect(await ServeCheck.wait(seconds: 20) { second.events.count == 1 }, "\(second.stderr)")
        #expect(await second.stop() == 0)
        #expect(ServeCheck.events(second, "accepted").count == 1, "\(second.stdout)")
        #expect(ServeCheck.names(incoming + "/accepted") == ["slow.pkg", "slow.pkg.report.json"])
        #expect(ServeCheck.names(incoming + "/rejected") == [])
        #expect(try ServeCheck.manifestProblems(root + "/com.example.slow/1.0") == [])
    }

    /// A writer that closes the file and opens it again to append (as `>>` in a shell does): the
    /// file is taken only once it has been unchanged for --settle-seconds after the last close.
    @Test func aWriterThatClosesAndReopensIsWaitedFor() async throws {
        let scratch = ScratchFolder()
        let incoming = scratch.at("incoming")
        let root = scratch.at("srv")
        try FileManager.default.createDirectory(atPath: incoming, withIntermediateDirectories: true)
        let pkg = try ServeCheck.package(
            scratch, product: "com.example.append", version: "1.0", name: "append",
            files: ["Contents/big.txt": String(repeating: "appended ", count: 50_000)])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: pkg))
        let serve = try ServeProcess(scratch, incoming: incoming, root: root)
        #expect(await ServeCheck.wait(seconds: 10) { serve.stderr.contains("watching") })
        let path = incoming + "/append.pkg"
        try await Harness.offThePool {  // a thread of its own: the 0.2 s pauses must not stretch
            for part in 0..<4 {
                if part == 0 { _ = FileManager.default.createFile(atPath: path, contents: nil) }
                let writer = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
                try writer.seekToEnd()
                writer.write(bytes[(part * bytes.count / 4)..<((part + 1) * bytes.count / 4)])
                try writer.close()
                Thread.sleep(forTimeInterval: 0.2)  // closed, under --settle-seconds (0.5)
            }
        }
        #expect(await ServeCheck.wait(seconds: 10) { serve.events.count == 1 }, "\(serve.stderr)")
        #expect(await serve.stop() == 0)
        #expect(ServeCheck.events(serve, "accepted").count == 1, "\(serve.stdout)")
        #expect(try ServeCheck.manifestProblems(root + "/com.example.append/1.0") == [])
    }

    @Test func oddEntriesAreRefusedUnfollowedAndSaidOnce() async throws {
        let scratch = ScratchFolder()
        let incoming = scratch.at("incoming")
        let root = scratch.at("srv")
        try FileManager.default.createDirectory(atPath: incoming, withIntermediateDirectories: true)
        let valid = try ServeCheck.package(scratch, product: "com.example.odd", version: "1.0", name: "valid")
        try FileManager.default.createSymbolicLink(atPath: incoming + "/link.pkg", withDestinationPath: valid)
        #expect(mkfifo(incoming + "/fifo.pkg", 0o644) == 0)
        try FileManager.default.createDirectory(atPath: incoming + "/folder.pkg", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: valid, toPath: incoming + "/UPPER.PKG")
        let forged =
            "evil\niapkg serve: forged.pkg: accepted (com.example.forged 9.9, installed) [0.01 s]\n\u{202E}x.pkg"
        try scratch.write("incoming/" + forged, "not a package")
        let serve = try ServeProcess(scratch, incoming: incoming, root: root, extra: ["--keep-reports", "3"])
        #expect(
            await ServeCheck.wait(seconds: 10) { ServeCheck.events(serve, "rejected").count == 4 }, "\(serve.stderr)")
        await Harness.pause(2.5)  // two more rescans: nothing said twice
        #expect(await serve.stop() == 0)

        // Nothing followed: the link's target was not installed, and what was refused is the link.
        #expect(!FileManager.default.fileExists(atPath: root + "/com.example.odd"))
        let rejected = ServeCheck.names(incoming + "/rejected").filter { !$0.hasSuffix(".report.json") }
        #expect(rejected.count == 3, "--keep-reports 3: \(rejected)")
        #expect(FileManager.default.fileExists(atPath: incoming + "/UPPER.PKG"))
        let messages = Dictionary(
            serve.events.map { ($0["file"] as? String ?? "", $0["message"] as? String ?? "") },
            uniquingKeysWith: { a, b in a + " | " + b })
        #expect(serve.events.count == 5, "\(serve.stdout)")
        #expect(messages["link.pkg"]?.contains("symbolic link (never followed)") == true)
        #expect(messages["fifo.pkg"]?.contains("FIFO") == true)
        #expect(messages["folder.pkg"]?.contains("a folder") == true)
        #expect(messages["UPPER.PKG"]?.contains("lower case") == true)
        // The forged name's rejection names the report where it now is, and no option serve lacks.
        let forgedMessage = try #require(messages[forged])
        #expect(forgedMessage.contains("/rejected/"), "\(forgedMessage)")
        #expect(!serve.stdout.contains("--force"))
        // stderr: the name escaped, so no line starts with the forged text.
        let lines = serve.stderr.split(separator: "\n")
        #expect(!lines.contains { $0.hasPrefix("iapkg serve: forged.pkg") }, "\(serve.stderr)")
        #expect(serve.stderr.contains("evil\\u{000A}iapkg serve: forged.pkg"))
        #expect(serve.stderr.contains("\\u{202E}x.pkg"))
        #expect(!serve.stderr.contains("\u{202E}"))
        #expect(try ServeCheck.schemaProblems(serve) == [])
    }
}
