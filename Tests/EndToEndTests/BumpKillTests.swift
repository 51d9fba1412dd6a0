import Foundation
import Testing

/// `bump` killed with `kill -9` at moments spread over its run: ContentInfo.plist is the old one or
/// the new one, byte for byte, and no temporary file is left beside it.
@Suite(.onTestThreads) struct BumpKillTests {
    @Test func killedBumpsLeaveTheOldOrTheNewPlist() throws {
        let scratch = ScratchFolder()
        // Extra keys (kept by bump) make the plist big enough for kills to land inside a bump.
        let filler = (0..<15_000).map { "  <key>k\($0)</key><string>\(String(repeating: "v", count: 20))</string>\n" }
            .joined()
        func plist(_ version: String) -> String {
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n"
                + "  <key>IAPProductIdentifier</key><string>com.example.kill</string>\n"
                + "  <key>ContentVersion</key><string>\(version)</string>\n" + filler + "</dict>\n</plist>\n"
        }
        let path = scratch.at("c/ContentInfo.plist")
        try scratch.write("c/ContentInfo.plist", plist("1.0"))
        let start = Date()
        #expect(try Harness.run(["iapkg", "bump", scratch.at("c")]).status == 0)
        let duration = Date().timeIntervalSince(start)
        var old = "1.1"
        for round in 0..<20 {
            let process = try Harness.start(["iapkg", "bump", scratch.at("c"), "--patch"])
            Thread.sleep(forTimeInterval: duration * Double(round) / 20.0 * 1.1)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let now = try String(contentsOfFile: path, encoding: .utf8)
            var parts = old.split(separator: ".").map { Int($0) ?? 0 }
            if parts.count == 2 { parts.append(1) } else { parts[parts.count - 1] += 1 }
            let new = parts.map(String.init).joined(separator: ".")
            #expect(now == plist(old) || now == plist(new), "round \(round): the plist is neither \(old) nor \(new)")
            if now == plist(new) { old = new }
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: scratch.at("c")).filter {
                $0 != "ContentInfo.plist"
            }
            #expect(leftovers.isEmpty, "round \(round): \(leftovers)")
        }
    }
}
