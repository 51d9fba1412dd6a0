import Foundation
import Testing

/// `iapkg bump` changes ContentVersion's bytes and nothing else.
@Suite(.onTestThreads) struct BumpTests {
    let handMade =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\r\n"
        + "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\r\n"
        + "<!-- written by hand; <key>ContentVersion</key> in a comment must stay -->\r\n"
        + "<plist version=\"1.0\">\r\n<dict>\r\n"
        + "    <key>IAPProductIdentifier</key>   <string>com.example.hand</string>\r\n"
        + "\t\t<key>Folder</key>\r\n\t\t<string>levels &amp; more</string>\r\n"
        + "  <key>ContentVersion</key><string>VERSION</string>\r\n"
        + "  <key>Nested</key><dict><key>ContentVersion</key><string>9.9</string></dict>\r\n"
        + "</dict>\r\n</plist>\r\n"

    func bump(_ version: String, _ flags: [String]) throws -> (Harness.Result, String, String) {
        let scratch = ScratchFolder()
        try scratch.write("c/ContentInfo.plist", handMade.replacingOccurrences(of: "VERSION", with: version))
        let result = try Harness.run(["iapkg", "bump", scratch.at("c")] + flags)
        let after = try String(contentsOfFile: scratch.at("c/ContentInfo.plist"), encoding: .utf8)
        return (result, after, scratch.path)
    }

    @Test(arguments: [
        ("1.0", [String](), "1.1"), ("1.9", [], "1.10"), ("1.1", ["--patch"], "1.1.1"),
        ("1.4", ["--major"], "2.0"), ("1.0", ["--to", "3.2"], "3.2"), ("2", ["--minor"], "2.1"),
    ])
    func changesOnlyTheVersionBytes(from: String, flags: [String], to: String) throws {
        let (result, after, _) = try bump(from, flags)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "\(from) → \(to)\n")
        #expect(after == handMade.replacingOccurrences(of: "VERSION", with: to))
    }

    @Test func refusesAVersionThatIsNotHigher() throws {
        for flags in [["--to", "1.0"], ["--to", "0.9"]] {
            let (result, after, _) = try bump("1.0", flags)
            #expect(result.status == 1, "\(flags)")
            #expect(after == handMade.replacingOccurrences(of: "VERSION", with: "1.0"))
        }
        let (usage, _, _) = try bump("1.0", ["--to", "../x"])
        #expect(usage.status == 64)
        let (both, _, _) = try bump("1.0", ["--major", "--patch"])
        #expect(both.status == 64)
    }

    @Test func binaryPlistBecomesXML() throws {
        let scratch = ScratchFolder()
        try FileManager.default.createDirectory(atPath: scratch.at("c"), withIntermediateDirectories: true)
        let made = try Harness.run([
            "python3", "-c",
            """
            import plistlib; open('\(scratch.at("c/ContentInfo.plist"))','wb').write(plistlib.dumps({'IAPProductIdentifier':'com.example.bin','ContentVersion':'1.0','Folder':'x'}, fmt=plistlib.FMT_BINARY))
            """,
        ])
        #expect(made.status == 0, "\(made.stderr)")
        let result = try Harness.run(["iapkg", "bump", scratch.at("c"), "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        #expect(json["rewrittenAsXML"] as? Bool == true)
        #expect(json["to"] as? String == "1.1")
        let after = try String(contentsOfFile: scratch.at("c/ContentInfo.plist"), encoding: .utf8)
        #expect(after.hasPrefix("<?xml"))
        #expect(after.contains("<string>1.1</string>") && after.contains("<key>Folder</key>"))
    }
}
