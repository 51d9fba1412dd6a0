#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `<product>/current.json`: which version a server serves now, and the SHA-256 of its manifest.
public struct CurrentPointer: Codable, Sendable, Equatable {
    /// The SHA-256 (lowercase hex) of the version's `manifest.json`.
    public var manifestSHA256: String
    /// The product the pointer belongs to.
    public var productIdentifier: String
    /// The document's schema version (1).
    public var schemaVersion: Int
    /// The current version (ContentVersion).
    public var version: String

    /// The pointer of `productIdentifier` to `version`, whose manifest hashes to `manifestSHA256`.
    package init(productIdentifier: String, version: String, manifestSHA256: String) {
        self.manifestSHA256 = manifestSHA256
        self.productIdentifier = productIdentifier
        self.schemaVersion = DeliveryDocument.schemaVersion
        self.version = version
    }

    /// The document's bytes as the store writes them: one line, sorted keys.
    package var encoded: [UInt8] {
        Array(
            ("{\"manifestSHA256\":\"\(manifestSHA256)\",\"productIdentifier\":\(JSONText.quoted(productIdentifier)),"
                + "\"schemaVersion\":\(schemaVersion),\"version\":\(JSONText.quoted(version))}\n").utf8)
    }

    /// The pointer in `data`, which must be the store's document for `product`: schema 1, a
    /// ContentVersion, a SHA-256.
    package static func decode(_ data: Data, product: String) throws(DeliveryDocumentError) -> CurrentPointer {
        let name = DeliveryDocument.pointerName
        let pointer: CurrentPointer
        do {
            pointer = try JSONDecoder().decode(CurrentPointer.self, from: data)
        } catch {
            throw DeliveryDocumentError(name, "it is not the store's pointer document (\(error))")
        }
        guard pointer.schemaVersion == DeliveryDocument.schemaVersion else {
            throw DeliveryDocumentError(name, "schema version \(pointer.schemaVersion) is not 1; update the client")
        }
        guard pointer.productIdentifier == product else {
            throw DeliveryDocumentError(name, "it names product '\(pointer.productIdentifier)', not '\(product)'")
        }
        guard ManifestRules.isVersionName(pointer.version) else {
            throw DeliveryDocumentError(
                name, "version '\(pointer.version)' is not a ContentVersion (digits and dots)")
        }
        guard ManifestRules.isSHA256(pointer.manifestSHA256) else {
            throw DeliveryDocumentError(name, "manifestSHA256 is not 64 lowercase hex digits")
        }
        return pointer
    }
}
