import Foundation
import Testing

/// `iapkg diff` between packages, content folders and installed versions.
@Suite(.onTestThreads) struct DiffTests {
    @Test func diffOfRealVersionPairs() throws {
        let scratch = ScratchFolder()
        let product = "com.example.diff"
        let big = String(repeating: "b", count: 50_000)
        let old = try scratch.contentFolder(
            "old", product: product, version: "1.0",
            files: [
                "Contents/same.txt": "same\n", "Contents/gone.txt": "bye\n", "Contents/edit.txt": "v1\n",
                "Contents/big.bin": big,
            ])
        let new = try scratch.contentFolder(
            "new", product: product, version: "1.1",
            files: [
                "Contents/same.txt": "same\n", "Contents/edit.txt": "version 2\n", "Contents/big.bin": big,
                "Contents/add/new.txt": "hello\n",
            ])
        try scratch.write("new/.DS_Store", "junk")
        for (folder, pkg) in [(old, "old.pkg"), (new, "new.pkg")] {
            #expect(try Harness.run(["iapkg", "build", folder, "-o", scratch.at(pkg)]).status == 0)
        }
        let root = scratch.at("srv")
        #expect(try Harness.run(["iapkg", "unpack", scratch.at("old.pkg"), "--into", root]).status == 0)
        // ContentInfo.plist changes too (its version).
        for (a, b) in [
            (scratch.at("old.pkg"), scratch.at("new.pkg")), (old, new),
            (root + "/\(product)/1.0", scratch.at("new.pkg")),
        ] {
            let run = try Harness.run(["iapkg", "diff", a, b, "--json"])
            #expect(run.status == 0, "\(run.stderr)")
            let json = try #require(try JSONSerialization.jsonObject(with: run.stdoutData) as? [String: Any])
            let paths = { (key: String) in ((json[key] as? [[String: Any]]) ?? []).compactMap { $0["path"] as? String }
            }
            #expect(paths("added") == ["Contents/add/new.txt"])
            #expect(paths("removed") == ["Contents/gone.txt"])
            #expect(paths("changed") == ["ContentInfo.plist", "Contents/edit.txt"])
            #expect(json["unchanged"] as? Int == 2 && json["schemaVersion"] as? Int == 1)
            let plist = try Data(contentsOf: URL(fileURLWithPath: new + "/ContentInfo.plist")).count
            #expect(json["downloadBytes"] as? Int == 6 + 10 + plist)
            #expect((json["new"] as? [String: Any])?["version"] as? String == "1.1")
        }
        let text = try Harness.run(["iapkg", "diff", scratch.at("old.pkg"), scratch.at("new.pkg")])
        #expect(text.stdout.contains("1 added, 1 removed, 2 changed, 2 unchanged"), "\(text.stdout)")
        #expect(text.stdout.contains("  + Contents/add/new.txt (6 bytes)"))
        #expect(try Harness.run(["iapkg", "diff", scratch.at("old.pkg"), scratch.at("missing.pkg")]).status == 2)
    }
}
