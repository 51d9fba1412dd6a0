import Foundation
import IAPTestSupport
import Testing

/// `unpack`, `list` and `activate` against a real SeaweedFS: the layout key for key as on disk,
/// what each object carries, and the store's refusals and errors.
@Suite(.enabled(if: SeaweedServer.isInstalled, SeaweedServer.skipReason)) struct ObjectStoreTests {
    static let product = "com.example.bucket"
    let scratch = ScratchFolder()

    func package(_ version: String, _ name: String, files: [String: String]? = nil) throws -> String {
        try ServeCheck.package(scratch, product: Self.product, version: version, name: name, files: files)
    }

    @Test func publishesKeyForKeyWithHeadersAndFetchWorksOverPlainHTTP() throws {
        let store = try BucketStore()
        let files = ["Contents/levels/one.json": "{\"level\": 1}\n", "Contents/art/cover.png": "not really a png\n"]
        let pkg = try package("1.0", "a", files: files)
        let unpacked = try store.iapkg(["unpack", pkg, "--into", store.url])
        #expect(unpacked.status == 0, "\(unpacked.stderr)")
        #expect(unpacked.stdout.contains("installed in \(store.url)/\(Self.product)/1.0/"), "\(unpacked.stdout)")
        let base = Self.product
        #expect(
            try store.keys()
                == [
                    "\(base)/.iapkg/claims/1", "\(base)/1.0/ContentInfo.plist", "\(base)/1.0/Contents/art/cover.png",
                    "\(base)/1.0/Contents/levels/one.json", "\(base)/1.0/manifest.json", "\(base)/current.json",
                ])
        let content = try store.head("\(base)/1.0/Contents/art/cover.png")
        #expect(content["ContentType"] as? String == "image/png")
        #expect(content["CacheControl"] as? String == "public, max-age=31536000, immutable")
        for key in ["\(base)/1.0/manifest.json", "\(base)/current.json"] {
            let head = try store.head(key)
            #expect(head["ContentType"] as? String == "application/json", "\(key)")
            #expect(head["CacheControl"] as? String == "no-cache", "\(key)")
        }
        #expect(try store.current(Self.product) == "1.0")

        // An app fetches it through a plain HTTP front of the bucket (a CDN with origin access).
        let front = try SigningFront(store.server)
        let fetched = try Harness.run([
            "iapkg", "fetch", front.base(store.prefix), Self.product, "--into", scratch.at("app"),
        ])
        #expect(fetched.status == 0, "\(fetched.stderr)")
        #expect(
            try String(contentsOfFile: scratch.at("app/current/Contents/levels/one.json"), encoding: .utf8)
                == "{\"level\": 1}\n")

        // The same package again is a no-op; list shows what is there.
        let again = try store.iapkg(["unpack", pkg, "--into", store.url])
        #expect(again.status == 0 && again.stdout.contains("already installed"), "\(again.stdout)\(again.stderr)")
        let listed = try store.iapkg(["list", store.url, "--json"])
        #expect(listed.status == 0, "\(listed.stderr)")
        let json = try JSONSerialization.jsonObject(with: listed.stdoutData) as? [String: Any]
        let product = (json?["products"] as? [[String: Any]])?.first
        #expect(product?["current"] as? String == "1.0")
        #expect((product?["versions"] as? [[String: Any]])?.first?["files"] as? Int == 3)
    }

    @Test func anInvalidPackageWritesNothing() throws {
        let store = try BucketStore()
        let pkg = try scratch.hostileTree(
            "bad", [.file("../../escaped", text: "x")], plist: Fixtures.plist(product: Self.product, version: "1.0"))
        let unpacked = try store.iapkg(["unpack", pkg, "--into", store.url])
        #expect(unpacked.status == 1, "\(unpacked.stderr)")
        #expect(try store.keys().isEmpty)
    }

    @Test func storeFailuresExitTwoNamingTheBucketAndWhatToCheck() throws {
        let store = try BucketStore()
        let pkg = try package("1.0", "a")
        var wrong = store.environment
        wrong["AWS_SECRET_ACCESS_KEY"] = "not-the-secret-3kd9"
        let denied = try Harness.run(["iapkg", "unpack", pkg, "--into", store.url], environment: wrong)
        #expect(denied.status == 2, "\(denied.stderr)")
        #expect(
            denied.stderr.contains("s3://\(SeaweedServer.bucket)") && denied.stderr.contains("AWS_SECRET_ACCESS_KEY"))
        #expect(!(denied.stderr + denied.stdout).contains("not-the-secret-3kd9"))

        let readOnly = try store.iapkg(["unpack", pkg, "--into", store.url], as: SeaweedServer.reader)
        #expect(readOnly.status == 2 && readOnly.stderr.contains("s3://\(SeaweedServer.bucket)"), "\(readOnly.stderr)")
        #expect(!(readOnly.stderr + readOnly.stdout).contains(SeaweedServer.reader.secretKey))

        let missing = try store.iapkg(["unpack", pkg, "--into", "s3://no-such-bucket-here/iap"])
        #expect(missing.status == 2 && missing.stderr.contains("no-such-bucket-here"), "\(missing.stderr)")

        var unreachable = store.environment
        unreachable["AWS_ENDPOINT_URL"] = "http://127.0.0.1:\(NginxServer.freePort())"
        let down = try Harness.run(["iapkg", "list", store.url], environment: unreachable)
        #expect(down.status == 2 && down.stderr.contains("AWS_ENDPOINT_URL"), "\(down.stderr)")
        #expect(try store.keys().isEmpty)
    }

    @Test func aVersionIsImmutableAndADowngradeIsRefused() throws {
        let store = try BucketStore()
        let first = try package("2.0", "a", files: ["Contents/a.txt": "first\n"])
        let other = try package("2.0", "b", files: ["Contents/a.txt": "other\n"])
        let lower = try package("1.0", "c")
        #expect(try store.iapkg(["unpack", first, "--into", store.url]).status == 0)
        let before = try store.keys()
        for arguments in [[other], [other, "--force"]] {
            let refused = try store.iapkg(["unpack"] + arguments + ["--into", store.url])
            #expect(refused.status == 1 && refused.stderr.contains("different content"), "\(refused.stderr)")
        }
        let downgrade = try store.iapkg(["unpack", lower, "--into", store.url])
        #expect(downgrade.status == 1 && downgrade.stderr.contains("lower than the current 2.0"), "\(downgrade.stderr)")
        #expect(try store.keys() == before)
        #expect(try store.read("\(Self.product)/2.0/Contents/a.txt") == Data("first\n".utf8))
    }

    @Test func activateRollsBackAndPinsAndKeepPrunesButNeverCurrent() throws {
        let store = try BucketStore()
        for version in ["1.0", "1.1"] {
            #expect(try store.iapkg(["unpack", try package(version, version), "--into", store.url]).status == 0)
        }
        let activated = try store.iapkg(["activate", store.url, Self.product, "1.0"])
        #expect(activated.status == 0 && activated.stdout.contains("current 1.1 → 1.0"), "\(activated.stderr)")
        #expect(try store.current(Self.product) == "1.0")
        let listed = try store.iapkg(["list", store.url])
        #expect(listed.stdout.contains("pinned by activate"), "\(listed.stdout)")
        let absent = try store.iapkg(["activate", store.url, Self.product, "3.0"])
        #expect(absent.status == 1 && absent.stderr.contains("installed: 1.0, 1.1"), "\(absent.stderr)")

        // --keep 1 with no grace: 1.1 goes, 1.0 (current, pinned) stays; then 1.2 moves current and 1.0 goes.
        let pruned = try store.iapkg(
            [
                "unpack", try package("0.9", "low"), "--into", store.url, "--allow-downgrade", "--no-activate",
                "--keep", "1",
                "--keep-for", "0",
            ])
        #expect(pruned.status == 0, "\(pruned.stderr)")
        #expect(try store.keys().filter { $0.hasSuffix("manifest.json") } == ["\(Self.product)/1.0/manifest.json"])
        let next = try store.iapkg(
            ["unpack", try package("1.2", "next"), "--into", store.url, "--keep", "1", "--keep-for", "0"])
        #expect(next.status == 0, "\(next.stderr)")
        #expect(try store.current(Self.product) == "1.2")
        let keys = try store.keys()
        #expect(
            !keys.contains {
                $0.contains("/1.0/") || $0.contains("/1.1/") || $0.hasSuffix("claims/1") || $0.hasSuffix("claims/1.1")
            }, "\(keys)")
    }

    @Test func storeCopyMovesAFolderStoreIntoABucketKeepingCurrentAndPins() throws {
        let store = try BucketStore()
        let root = scratch.at("srv")
        for version in ["1.0", "1.1"] {
            let files = ["Contents/v.txt": "\(version)\n", "Contents/common/a.txt": "a\n"]
            #expect(
                try Harness.run(["iapkg", "unpack", try package(version, version, files: files), "--into", root]).status
                    == 0)
        }
        #expect(try Harness.run(["iapkg", "activate", root, Self.product, "1.0"]).status == 0)  // a pinned rollback
        let copied = try store.iapkg(["store", "copy", root, store.url])
        #expect(copied.status == 0, "\(copied.stderr)")
        #expect(copied.stdout.contains("copied 2 version(s); current → 1.0 (pinned)"), "\(copied.stdout)")
        let listed = try store.iapkg(["list", store.url, "--json"])
        let json = try JSONSerialization.jsonObject(with: listed.stdoutData) as? [String: Any]
        let product = try #require((json?["products"] as? [[String: Any]])?.first)
        #expect(product["current"] as? String == "1.0" && product["pinned"] as? String == "1.0", "\(product)")
        #expect((product["versions"] as? [[String: Any]])?.map { $0["version"] as? String } == ["1.0", "1.1"])
        // Each version's manifest is the folder store's, byte for byte; a rerun copies nothing.
        for version in ["1.0", "1.1"] {
            let local = try Data(contentsOf: URL(fileURLWithPath: "\(root)/\(Self.product)/\(version)/manifest.json"))
            #expect(try store.read("\(Self.product)/\(version)/manifest.json") == local)
        }
        let again = try store.iapkg(["store", "copy", root, store.url])
        #expect(again.status == 0 && again.stdout.contains("copied 0 version(s), 2 already there"), "\(again.stdout)")
        let wrongWay = try store.iapkg(["store", "copy", store.url, root])
        #expect(wrongWay.status == 64, "\(wrongWay.stderr)")
    }
}
