import IAPDelivery
import IAPSystem

/// Reading an installed version of the folder store: its manifest, and its folder as it is.
extension VersionStore.LockedProduct {
    package func manifest(of version: String) throws -> VersionManifest {
        let folder = try installedFolder(version)
        let bytes =
            folder.status(DeliveryManifest.fileName) == nil
            ? try DeliveryManifest.make(productIdentifier: productIdentifier, version: version, of: folder)
            : try folder.readFile(DeliveryManifest.fileName, limit: Int.max)
        return try StoredManifest.decode(bytes, productIdentifier, version, at: location(of: version))
    }

    package func readableFolder(of version: String, scratch: String) throws -> ReadableVersion {
        ReadableVersion(path: try installedFolder(version).path)
    }

    /// The folder of `version`, when it is installed.
    private func installedFolder(_ version: String) throws -> DirectoryHandle {
        guard try versions().contains(where: { $0.text == version }) else {
            throw IAPKitError.failed(
                "\(folder.path) holds no installed version \(version) of \(productIdentifier); `iapkg list` shows those it holds"
            )
        }
        return try folder.openDirectory(version)
    }
}

/// A version manifest a store holds, decoded strictly.
enum StoredManifest {
    /// The manifest of `product` `version` in `bytes`, read from `location`; an error naming it when
    /// it is not one.
    static func decode(_ bytes: [UInt8], _ product: String, _ version: String, at location: String) throws
        -> VersionManifest
    {
        do {
            return try VersionManifest.decode(bytes, productIdentifier: product, version: version)
        } catch {
            throw IAPKitError.failed(
                "\(location): the version's \(DeliveryManifest.fileName) cannot be read (\(error)); it was changed after it was published"
            )
        }
    }
}
