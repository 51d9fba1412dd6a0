import Foundation
import IAPDelivery
import Testing

@testable import IAPClient

/// current.json and manifest.json as the client reads them, and the update plan.
@Suite struct DeliveryDocumentsTests {
    let manifestText = """
        {"fileCount": 1, "files": [{"mode": "0644", "path": "Contents/a.txt", "sha256": \
        "87428fc522803d31065e7bce3cf03fe475096631e5e07bbd7a0fde60c4cf25c7", "size": 2}], \
        "productIdentifier": "com.example.p", "schemaVersion": 1, "symlinks": [], "totalBytes": 2, "version": "1.0"}
        """

    func pointer(_ data: Data, version: String = "1.0") -> CurrentPointer {
        CurrentPointer(productIdentifier: "com.example.p", version: version, manifestSHA256: Digests.sha256Hex(data))
    }

    @Test func theManifestMustHashToThePointer() throws {
        let data = Data(manifestText.utf8)
        let manifest = try DeliveryDocuments.manifest(data, for: pointer(data))
        #expect(manifest.files.map(\.path) == ["Contents/a.txt"])
        var changed = data
        changed.append(0x20)
        #expect(throws: FetchError.self) { try DeliveryDocuments.manifest(changed, for: pointer(data)) }
        #expect(throws: FetchError.self) { try DeliveryDocuments.manifest(data, for: pointer(data, version: "1.1")) }
    }

    @Test func thePointerIsCheckedStrictly() throws {
        let good =
            #"{"manifestSHA256":"\#(String(repeating: "0", count: 64))","productIdentifier":"com.example.p","schemaVersion":1,"version":"1.2"}"#
        #expect(try DeliveryDocuments.pointer(Data(good.utf8), product: "com.example.p").version == "1.2")
        for bad in [
            good.replacingOccurrences(of: "1.2", with: "../1"),
            good.replacingOccurrences(of: "\"schemaVersion\":1", with: "\"schemaVersion\":2"),
            "{}", "not json",
        ] {
            #expect(throws: FetchError.self) { try DeliveryDocuments.pointer(Data(bad.utf8), product: "com.example.p") }
        }
        #expect(throws: FetchError.self) {
            try DeliveryDocuments.pointer(Data(good.utf8), product: "com.example.other")
        }
    }

    @Test func thePlanIsIapkgDiffs() {
        func file(_ path: String, _ digest: String, _ size: UInt64) -> DeliveryItem {
            DeliveryItem(path: path, kind: "file", value: digest, size: size)
        }
        let old = [file("a", "1", 10), file("b", "2", 20), file("c", "3", 30)]
        let new = [file("a", "1", 10), file("b", "9", 25), file("d", "4", 40)]
        let plan = UpdatePlan(from: old, to: new)
        #expect(plan.unchanged.map(\.path) == ["a"])
        #expect(plan.changed.map(\.new.path) == ["b"])
        #expect(plan.added.map(\.path) == ["d"])
        #expect(plan.removed.map(\.path) == ["c"])
        #expect(plan.downloadBytes == 65)
    }

    @Test func errorsSayWhetherTheContentIsAtFault() {
        #expect(FetchError.refused("x", "y").isContentProblem)
        #expect(!FetchError.http("u", 500).isContentProblem)
        #expect(!FetchError.network("u", "m").isContentProblem)
        #expect(FetchError.http("u", 401).description.contains("--token"))
    }
}
