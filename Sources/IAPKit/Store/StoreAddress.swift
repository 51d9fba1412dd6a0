import IAPDelivery

/// A store URL as `diff` and `export-asset-pack` read it: a whole store (`s3://BUCKET/PREFIX`), one
/// product in it (`…/PREFIX/<product>`, its current version) or one installed version
/// (`…/PREFIX/<product>/<version>`). What the URL names is told by what the store holds, as a
/// folder is told by what it holds, through the store's own operations.
package struct StoreAddress {
    /// The URL as given.
    package let text: String
    /// The store.
    package let storage: any VersionStorage
    /// The product named, if any.
    package let product: (any StoredProduct)?
    /// The version named, if any.
    package let version: String?

    /// What `text` names, or nil when it is not a store URL but a path (a package or a folder).
    package static func resolve(_ text: String) throws -> StoreAddress? {
        guard StoreLocation(text).isObjectStore else { return nil }
        var parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        while parts.count > 3 && parts.last == "" { parts.removeLast() }
        let names = Array(parts.dropFirst(3))  // below the bucket
        func store(above count: Int) throws -> any VersionStorage {
            try StoreLocation(parts.dropLast(count).joined(separator: "/")).open()
        }
        if names.count >= 2, let version = names.last, ContentVersion(version) != nil {
            let storage = try store(above: 2)
            if let product = try installedProduct(names[names.count - 2], in: storage) {
                let versions = try product.versions()
                if versions.contains(where: { $0.text == version }) {
                    return StoreAddress(text: text, storage: storage, product: product, version: version)
                }
                // A product of that store, without this version; else a store whose prefix ends so.
                if try !versions.isEmpty || product.current() != nil {
                    throw IAPKitError.failed(
                        "\(storage.location) holds no installed version \(version) of \(product.productIdentifier); `iapkg list \(storage.location)` shows those it holds"
                    )
                }
            }
        }
        if let name = names.last {
            let storage = try store(above: 1)
            if let product = try installedProduct(name, in: storage),
                try product.current() != nil || !product.versions().isEmpty
            {
                return StoreAddress(text: text, storage: storage, product: product, version: nil)
            }
        }
        return StoreAddress(text: text, storage: try store(above: 0), product: nil, version: nil)
    }

    /// The product `name` of `storage`, when `name` is a product identifier the store holds.
    private static func installedProduct(_ name: String, in storage: any VersionStorage) throws
        -> (any StoredProduct)?
    {
        guard ProductIdentifier.isValid(name) else { return nil }
        do { return try storage.openProduct(name, create: false) } catch IAPKitError.refused { return nil }
    }

    /// The one version this address names: the version given, or the product's current version.
    package func singleVersion() throws -> (product: any StoredProduct, version: String) {
        guard let product else {
            throw IAPKitError.failed(
                "\(text) names no version: give s3://BUCKET/PREFIX/<product>/<version>, or s3://BUCKET/PREFIX/<product> for its current version (`iapkg list s3://BUCKET/PREFIX` shows them)"
            )
        }
        if let version { return (product, version) }
        guard let current = try product.current()?.text else {
            throw IAPKitError.failed(
                "\(text): \(product.productIdentifier) has no current version; give one of its versions (`iapkg list` shows them)"
            )
        }
        return (product, current)
    }
}
