import Testing

@testable import IAPKit

/// Where the object store puts things, what each object says it is, and how a `current.json` and
/// the retention state read back.
@Suite struct ObjectStoreLayoutTests {
    @Test func keysMirrorTheFolderStoreAndBookkeepingIsHidden() {
        #expect(ObjectStoreLayout.pointer("com.example.a") == "com.example.a/current.json")
        #expect(ObjectStoreLayout.manifest("com.example.a", "1.2") == "com.example.a/1.2/manifest.json")
        #expect(ObjectStoreLayout.retention("com.example.a") == "com.example.a/.iapkg/retention")
        // One claim for every spelling of a version.
        for spelling in ["1.0", "1", "1.0.0", "01.00"] {
            #expect(
                ObjectStoreLayout.claim("com.example.a", spelling) == "com.example.a/.iapkg/claims/1", "\(spelling)")
        }
        #expect(ObjectStoreLayout.claim("com.example.a", "0.0") == "com.example.a/.iapkg/claims/0")
        #expect(ObjectStoreLayout.claim("com.example.a", "2.10.3") == "com.example.a/.iapkg/claims/2.10.3")
    }

    @Test func contentTypesComeFromTheNameAndUnknownIsOctetStream() {
        #expect(ObjectStoreLayout.contentType(of: "ContentInfo.plist") == "application/x-plist")
        #expect(ObjectStoreLayout.contentType(of: "Contents/Art/Cover.PNG") == "image/png")
        #expect(ObjectStoreLayout.contentType(of: "Contents/.hidden") == "application/octet-stream")
        #expect(ObjectStoreLayout.contentType(of: "Contents/level.dat") == "application/octet-stream")
        #expect(ObjectStoreLayout.contentType(of: "Contents/noext") == "application/octet-stream")
    }

    @Test func theCurrentVersionReadsBackFromWhatTheStoreWrites() {
        let pointer = DeliveryManifest.pointer(
            productIdentifier: "com.example.a", version: "3.50", manifestSHA256: String(repeating: "0", count: 64))
        #expect(CurrentPointerText.version(in: pointer) == "3.50")
        #expect(CurrentPointerText.version(in: Array("{}".utf8)) == nil)
    }

    @Test func retentionRoundTripsAndPruningSparesCurrentPinnedAndRecent() {
        var state = VersionRetention()
        state = state.activating("1.1", previous: "1.0", pinning: false, newerInstalled: false, now: 1000)
        state = state.activating("1.0", previous: "1.1", pinning: true, newerInstalled: true, now: 2000)
        #expect(state.pinned == "1.0" && state.left == ["1.1": 2000])
        #expect(VersionRetention(text: state.text) == state)
        let versions = ["0.9", "1.0", "1.1", "1.2"].compactMap(ContentVersion.init)
        let recent = state.pruning(versions, current: "1.0", keep: 1, grace: 500, now: 2100)
        #expect(recent.removed == ["0.9", "1.2"])  // 1.0 current and pinned, 1.1 left 100 s ago
        let later = state.pruning(versions, current: "1.0", keep: 1, grace: 500, now: 9000)
        #expect(later.removed == ["0.9", "1.1", "1.2"] && later.state.left.isEmpty && later.state.pinned == "1.0")
    }
}
