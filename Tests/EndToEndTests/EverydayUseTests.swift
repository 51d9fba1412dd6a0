import Foundation
import Testing

/// Things users do that the reference examples do not: found by trying the tool as a new user.
@Suite(.onTestThreads) struct EverydayUseTests {
    @Test func buildingFromInsideTheContentFolderWritesBesideIt() throws {
        let scratch = ScratchFolder()
        let folder = try scratch.contentFolder("pack", product: "com.example.inside")
        for _ in 0..<2 {
            let result = try Harness.run(["iapkg", "build", "."], in: folder)
            #expect(result.status == 0, "\(result.stderr)")
        }
        #expect(FileManager.default.fileExists(atPath: scratch.at("com.example.inside-1.0.pkg")))
        #expect(!FileManager.default.fileExists(atPath: folder + "/com.example.inside-1.0.pkg"))
        let inside = try Harness.run(["iapkg", "build", ".", "-o", "x.pkg"], in: folder)
        #expect(inside.status == 1)
        #expect(inside.stderr.contains("inside the content folder"))
    }

    @Test func validatingAGitCheckoutIgnoresWhatBuildLeavesOut() throws {
        let scratch = ScratchFolder()
        let folder = try scratch.contentFolder("repo")
        try scratch.write("repo/.git/hooks/pre-commit.sample", "#!/bin/sh\nexit 0\n", mode: 0o755)
        try scratch.write("repo/.git/config", "[core]\n")
        let result = try Harness.run(["iapkg", "validate", folder, "--json"])
        let json = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        let findings = ((json["inputs"] as? [[String: Any]])?.first?["findings"] as? [[String: Any]]) ?? []
        #expect(findings.compactMap { $0["rule"] as? String } == ["hygiene-junk-file"])
        #expect(findings.first?["entry"] as? String == ".git")
    }

    @Test func inspectingATruncatedPackageFails() throws {
        let scratch = ScratchFolder()
        let folder = try scratch.contentFolder(
            "c", files: ["Contents/big.txt": String(repeating: "level score chapter ", count: 20_000)])
        #expect(try Harness.run(["iapkg", "build", folder, "-o", scratch.at("good.pkg")]).status == 0)
        let data = try Data(contentsOf: URL(fileURLWithPath: scratch.at("good.pkg")))
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: scratch.at("cut.pkg")))
        let inspect = try Harness.run(["iapkg", "inspect", scratch.at("cut.pkg")])
        #expect(inspect.status == 1, "\(inspect.stderr)")
        let validate = try Harness.run(["iapkg", "validate", scratch.at("cut.pkg"), "--json"])
        #expect(validate.status == 1)
        let json = try #require(try JSONSerialization.jsonObject(with: validate.stdoutData) as? [String: Any])
        let rules = ((json["inputs"] as? [[String: Any]])?.first?["findings"] as? [[String: Any]] ?? []).compactMap {
            $0["rule"] as? String
        }
        #expect(!rules.contains("shape-missing-contentinfo"), "\(rules)")
        #expect(rules.filter { $0 == "xar-data-range" }.count == Set(rules.filter { $0 == "xar-data-range" }).count)
        let folderInspect = try Harness.run(["iapkg", "inspect", folder])
        #expect(folderInspect.status == 1)
        #expect(folderInspect.stderr.contains("validate"))
        let empty = scratch.at("empty.pkg")
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        #expect(try Harness.run(["iapkg", "validate", empty]).stdout.contains("empty"))
    }

    @Test func reUnpackingAnOlderInstalledVersionIsANoOp() throws {
        let scratch = ScratchFolder()
        var packages: [String] = []
        for version in ["1.0", "2.0"] {
            let folder = try scratch.contentFolder(
                "v\(version)", product: "com.example.again", version: version,
                files: ["Contents/v.txt": version])
            packages.append(scratch.at("v\(version).pkg"))
            #expect(try Harness.run(["iapkg", "build", folder, "-o", packages.last!]).status == 0)
        }
        let root = scratch.at("srv")
        for package in packages { #expect(try Harness.run(["iapkg", "unpack", package, "--into", root]).status == 0) }
        // A deploy job that re-runs over every package must keep passing.
        let again = try Harness.run(["iapkg", "unpack", packages[0], packages[1], "--into", root])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.components(separatedBy: "already installed").count == 3)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: root + "/com.example.again/current") == "2.0")
    }

    @Test func usageErrorsExit64() throws {
        let scratch = ScratchFolder()
        #expect(try Harness.run(["iapkg", "activate", scratch.path, "../..", "1.0"]).status == 64)
        #expect(try Harness.run(["iapkg", "activate", scratch.path, "com.example.x", "abc"]).status == 64)
        #expect(try Harness.run(["iapkg", "validate", scratch.path, "--product-id", "bad id"]).status == 64)
        #expect(try Harness.run(["iapkg", "validate", scratch.path, "--newer-than", "abc"]).status == 64)
        #expect(try Harness.run(["iapkg", "validate", scratch.path, "--newer-than", "missing.pkg"]).status == 2)
    }
}
