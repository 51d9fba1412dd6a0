import IAPCrypto
import IAPDelivery
import IAPSystem

/// The folder store's side of the delivery documents (IAPDelivery owns their shape): a version
/// folder's `manifest.json` written from its files, and the SHA-256 that `current.json` names.
/// Both are written by the store, never by a package (a package's content root holds only
/// ContentInfo.plist and Contents/).
package enum DeliveryManifest {
    /// The manifest's name inside a version folder.
    package static let fileName = DeliveryDocument.manifestName
    /// The pointer's name inside a product folder, beside the `current` link.
    package static let pointerName = DeliveryDocument.pointerName

    /// The manifest of the version folder `folder` (sorted keys, one file per line).
    package static func make(productIdentifier: String, version: String, of folder: DirectoryHandle) throws -> [UInt8] {
        ManifestWriter.bytes(
            productIdentifier: productIdentifier, version: version, items: try ContentManifest.of(folder).items)
    }

    /// The bytes of `<product>/current.json` for `version` whose manifest hashes to `manifestSHA256`.
    package static func pointer(productIdentifier: String, version: String, manifestSHA256: String) -> [UInt8] {
        CurrentPointer(productIdentifier: productIdentifier, version: version, manifestSHA256: manifestSHA256).encoded
    }

    /// Writes the manifest of `items` (what was just written there) into a staging folder not yet
    /// visible (flushed with it).
    static func write<Line: DeliveryManifestLine>(
        productIdentifier: String, version: String, items: [Line], into staging: DirectoryHandle
    ) throws {
        let bytes = ManifestWriter.bytes(productIdentifier: productIdentifier, version: version, items: items)
        let file = try staging.createFile(fileName, mode: 0o644)
        try file.write(bytes)
        try file.sync()
    }

    /// The SHA-256 (hex) of `version`'s manifest in `product`, writing the manifest first if the
    /// version was installed before manifests existed (atomically, from the files that are there).
    static func ensure(productIdentifier: String, version: String, in product: DirectoryHandle) throws -> String {
        let folder = try product.openDirectory(version)
        if folder.status(fileName) == nil {
            let bytes = try make(productIdentifier: productIdentifier, version: version, of: folder)
            try folder.writeAtomically(fileName, bytes)
        }
        // Read in pieces: at 1,000,000 entries the manifest is about 150 MB.
        return Hex.encode(try DigestHasher.digest(.sha256, ofRestOf: try folder.openFile(fileName)))
    }
}
