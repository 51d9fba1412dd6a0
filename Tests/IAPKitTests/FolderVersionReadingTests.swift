import Foundation
import IAPDelivery
import IAPSystem
import IAPTestSupport
import Testing

@testable import IAPKit

/// The folder store read as `diff` and `export-asset-pack` read an object store: an installed
/// version's manifest (written at install, or made from the files of a store older than
/// manifests) and its folder.
@Suite struct FolderVersionReadingTests {
    let scratch = ScratchFolder()

    @Test func aVersionsManifestAndFolderAreReadThroughTheStoreOperations() throws {
        let product = "com.example.read.folder"
        let folder = try scratch.contentFolder("src", product: product, version: "1.0")
        _ = try PackageBuilder.build(folder: folder, options: BuildOptions(output: scratch.at("p.pkg")))
        let root = scratch.at("srv")
        _ = try Unpacker.unpack(scratch.at("p.pkg"), into: root, options: UnpackOptions())
        let stored = try StoreLocation(root).open().openProduct(product, create: false)
        let manifest = try stored.manifest(of: "1.0")
        #expect(manifest.productIdentifier == product && manifest.version == "1.0")
        #expect(manifest.files.map(\.path) == ["ContentInfo.plist", "Contents/readme.txt"])
        // SHA-256 of "hello\n", the fixture's file.
        #expect(manifest.files.last?.sha256 == "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03")
        // A version installed before manifests existed is described from its files, unchanged.
        try FileManager.default.removeItem(atPath: "\(root)/\(product)/1.0/manifest.json")
        #expect(try stored.manifest(of: "1.0") == manifest)
        #expect(!FileManager.default.fileExists(atPath: "\(root)/\(product)/1.0/manifest.json"))
        #expect(try stored.readableFolder(of: "1.0", scratch: scratch.path).path == "\(root)/\(product)/1.0")
        #expect {
            try stored.manifest(of: "2.0")
        } throws: { error in
            "\(error)".contains("holds no installed version 2.0 of \(product)")
        }
    }
}
