@_exported import IAPDelivery

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The documents a server publishes, read strictly through IAPDelivery, their refusals as the
/// client's errors.
enum DeliveryDocuments {
    /// Largest `current.json` read.
    static let pointerLimit = DeliveryDocument.pointerLimit
    /// Largest `manifest.json` read.
    static let manifestLimit = DeliveryDocument.manifestLimit

    /// `current.json` from `data`, for `product`.
    static func pointer(_ data: Data, product: String) throws(FetchError) -> CurrentPointer {
        do {
            return try CurrentPointer.decode(data, product: product)
        } catch {
            throw .refused(error.document, error.problem)
        }
    }

    /// `manifest.json` from `data`, which must hash to the pointer's SHA-256 and describe its
    /// version, with `limit` as the largest total of its files.
    static func manifest(
        _ data: Data, for pointer: CurrentPointer, limit: UInt64 = ManifestRules.defaultTotalLimit
    ) throws(FetchError) -> VersionManifest {
        guard Digests.sha256Hex(data) == pointer.manifestSHA256 else {
            throw .refused(
                "\(pointer.version)/manifest.json",
                "its SHA-256 is not the one current.json gives (the manifest was changed or cut)")
        }
        do {
            return try VersionManifest.decode(data, for: pointer, limit: limit)
        } catch {
            throw .refused(error.document, error.problem)
        }
    }
}
