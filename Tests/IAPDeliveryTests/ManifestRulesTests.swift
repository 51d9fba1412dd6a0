import Foundation
import IAPDelivery
import Testing

/// The rules a manifest meets before anything it lists is fetched.
@Suite struct ManifestRulesTests {
    static let digest = String(repeating: "ab", count: 32)

    func manifest(files: [(String, UInt64)] = [("Contents/a.txt", 2)], links: [(String, String)] = [])
        -> VersionManifest
    {
        let listed = files.map { VersionManifest.File(mode: "0644", path: $0.0, sha256: Self.digest, size: $0.1) }
        return VersionManifest(
            fileCount: listed.count, files: listed, productIdentifier: "com.example.p", schemaVersion: 1,
            symlinks: links.map { VersionManifest.Symlink(path: $0.0, target: $0.1) },
            totalBytes: listed.reduce(0) { $0 &+ $1.size }, version: "1.0")
    }

    func refusal(_ manifest: VersionManifest) -> String? {
        do {
            try ManifestRules.check(manifest, name: "m")
            return nil
        } catch {
            return error.description
        }
    }

    @Test func aPlainManifestPasses() {
        let plain = manifest(
            files: [("ContentInfo.plist", 300), ("Contents/a.txt", 2), ("Contents/d/b.txt", 5)],
            links: [("Contents/latest", "d/b.txt"), ("Contents/d/up", "../a.txt"), ("Contents/root", ".")])
        #expect(refusal(plain) == nil)
    }

    @Test(arguments: [
        "../x", "Contents/../../x", "/etc/passwd", "Contents//a", "Contents/./a", "Contents", "Other/a", "",
        "manifest.json", ".lock",
    ])
    func unsafePathsAreRefused(_ path: String) {
        #expect(refusal(manifest(files: [(path, 1)])) != nil)
    }

    @Test func duplicatesAndEntriesBelowAFileAreRefused() {
        #expect(refusal(manifest(files: [("Contents/a", 1), ("Contents/a", 1)]))?.contains("listed twice") == true)
        #expect(refusal(manifest(files: [("Contents/a", 1)], links: [("Contents/a", "b")]))?.contains("twice") == true)
        #expect(refusal(manifest(files: [("Contents/a", 1), ("Contents/a/b", 1)]))?.contains("lies below") == true)
        #expect(
            refusal(manifest(files: [("Contents/l/b", 1)], links: [("Contents/l", "d")]))?.contains("below") == true)
    }

    @Test(arguments: [
        ("Contents/escape", "../../x"), ("Contents/abs", "/etc/passwd"), ("Contents/empty", ""),
        ("Contents/up", ".."), ("Contents/self", "self"),
    ])
    func linksLeavingContentsAreRefused(_ link: (String, String)) {
        #expect(refusal(manifest(links: [link]))?.contains("leads outside") == true)
    }

    @Test func linksAreFollowedThroughOtherLinks() {
        // Each link alone stays inside, but `e` goes through `up` (Contents/d/up -> ..) and leaves.
        let chain = manifest(links: [("Contents/d/up", ".."), ("Contents/d/e", "up/../x")])
        #expect(refusal(chain)?.contains("Contents/d/e") == true)
        let loop = manifest(links: [("Contents/a", "b"), ("Contents/b", "a")])
        #expect(refusal(loop) != nil)
        #expect(refusal(manifest(links: [("ContentInfo.plist", "Contents/a.txt")])) != nil)
    }

    @Test func countsTotalsAndTheLimitAreChecked() {
        var wrongCount = manifest()
        wrongCount.fileCount = 2
        #expect(refusal(wrongCount)?.contains("fileCount") == true)
        var wrongTotal = manifest()
        wrongTotal.totalBytes = 3
        #expect(refusal(wrongTotal)?.contains("totalBytes") == true)
        #expect(refusal(manifest(files: [("Contents/big", 2_147_483_648)])) == nil)
        #expect(refusal(manifest(files: [("Contents/big", 2_147_483_649)]))?.contains("limit") == true)
        #expect(
            refusal(manifest(files: [("Contents/a", UInt64.max), ("Contents/b", 2)]))?.contains("overflow") == true)
    }

    @Test func versionNamesAndDigests() {
        #expect(ManifestRules.isVersionName("1.10.2"))
        for bad in ["", "1.", ".1", "1..2", "../1", "1/2", "1.0a", String(repeating: "1", count: 65)] {
            #expect(!ManifestRules.isVersionName(bad))
        }
        #expect(ManifestRules.isSHA256(Self.digest))
        #expect(!ManifestRules.isSHA256(Self.digest.uppercased()))
        #expect(!ManifestRules.isSHA256(String(Self.digest.dropLast())))
    }
}
