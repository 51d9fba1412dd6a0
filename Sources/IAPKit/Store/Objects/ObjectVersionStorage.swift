import IAPSystem

/// The object store behind `VersionStorage`: a bucket and prefix laid out key for key as the
/// folder store (`ObjectStoreLayout`), published to with conditional writes (`ObjectStoredProduct`).
package struct ObjectVersionStorage: VersionStorage {
    let bucket: any ObjectBucket

    /// The store in `bucket`.
    package init(_ bucket: any ObjectBucket) { self.bucket = bucket }

    package var location: String { bucket.location }

    package func listing() throws -> StoreListing {
        let objects = try bucket.list(prefix: "")
        var byProduct: [String: [ObjectSummary]] = [:]
        for object in objects {
            guard let slash = object.key.firstIndex(of: "/") else { continue }
            let product = String(object.key[..<slash])
            guard ProductIdentifier.isValid(product) else { continue }
            byProduct[product, default: []].append(object)
        }
        var products: [StoreListing.Product] = []
        for (product, objects) in byProduct.sorted(by: { $0.key < $1.key }) {
            let stored = ObjectStoredProduct(product, in: bucket)
            let current = try stored.current()?.text
            let pinned = try stored.retention().pinned.flatMap { $0 == current ? $0 : nil }
            let versions = ObjectStoreListing.versions(of: product, in: objects).map { found in
                StoreListing.Version(
                    version: found.version.text, files: found.files, bytes: found.bytes,
                    current: found.version.text == current)
            }
            guard !versions.isEmpty || current != nil else { continue }
            products.append(.init(productIdentifier: product, current: current, pinned: pinned, versions: versions))
        }
        return StoreListing(root: location, products: products)
    }

    package func openProduct(_ productIdentifier: String, create: Bool) throws -> any StoredProduct {
        guard ProductIdentifier.isValid(productIdentifier) else {
            throw IAPKitError.refused("'\(productIdentifier)' is not a valid product identifier")
        }
        if !create, try bucket.list(prefix: productIdentifier + "/").isEmpty {
            throw IAPKitError.refused("\(location) holds no product \(productIdentifier)")
        }
        return ObjectStoredProduct(productIdentifier, in: bucket)
    }
}

/// The installed versions among a product's listed objects.
enum ObjectStoreListing {
    /// A version whose manifest is there, with its content's file count and bytes (the manifest left out).
    struct Found {
        var version: ContentVersion
        var files = 0
        var bytes: UInt64 = 0
    }

    /// The versions of `product` installed in `objects` (its keys), lowest first.
    static func versions(of product: String, in objects: [ObjectSummary]) -> [Found] {
        var found: [String: Found] = [:]
        var manifests: Set<String> = []
        let start = product.utf8.count + 1
        for object in objects {
            let rest = object.key.utf8.dropFirst(start)
            guard let slash = rest.firstIndex(of: UInt8(ascii: "/")),
                let name = String(rest[..<slash]), let version = ContentVersion(name)
            else { continue }
            let path = String(decoding: rest[rest.index(after: slash)...], as: UTF8.self)
            if path == DeliveryManifest.fileName {
                manifests.insert(name)
                if found[name] == nil { found[name] = Found(version: version) }
                continue
            }
            found[name, default: Found(version: version)].files += 1
            found[name, default: Found(version: version)].bytes += object.size
        }
        return found.filter { manifests.contains($0.key) }.values.sorted { $0.version < $1.version }
    }
}
