import IAPSystem

/// What copying a folder store into another store did, for `iapkg store copy`.
package struct StoreCopyReport: Codable, Sendable {
    /// One product copied.
    package struct Product: Codable, Sendable {
        package var productIdentifier: String
        /// Versions written to the destination, and those found there already with the same content.
        package var copied: [String]
        package var alreadyThere: [String]
        /// The destination's current version afterwards, and whether it is pinned.
        package var current: String?
        package var pinned: String?
    }

    package var schemaVersion = 1
    package var source: String
    package var destination: String
    package var products: [Product]
    /// Versions not copied because the destination holds them with other content (each a message).
    package var failures: [String]
}

/// Copies every product of a folder store into another store (a bucket, usually): each version
/// committed as `unpack` commits one (claimed, checked as it lands, its manifest last), then
/// `current` and an operator's pin set as in the source, by the destination's conditional write.
/// Running it again copies only what is missing; nothing in the source changes.
package enum StoreCopier {
    /// Copies `source` (a folder store) into `destination` (a folder or `s3://BUCKET/PREFIX`).
    package static func copy(_ source: String, into destination: String) throws(IAPKitError) -> StoreCopyReport {
        try translatingErrors {
            guard case .folder(let path) = StoreLocation(source) else {
                throw IAPKitError.refused(
                    "\(source): the source must be a folder store (ROOT of `iapkg unpack --into ROOT`)")
            }
            let store = try VersionStore.open(path, create: false)
            let target = try StoreLocation(destination).open()
            var products: [StoreCopyReport.Product] = []
            var failures: [String] = []
            for name in try store.products() {
                products.append(try copyProduct(name, from: store, into: target, failures: &failures))
            }
            return StoreCopyReport(source: source, destination: destination, products: products, failures: failures)
        }
    }

    private static func copyProduct(
        _ name: String, from store: VersionStore, into target: any VersionStorage, failures: inout [String]
    ) throws -> StoreCopyReport.Product {
        let source = try store.lockProduct(name, create: false)
        try source.removeStaleWork()
        let destination = try target.openProduct(name, create: true)
        var report = StoreCopyReport.Product(productIdentifier: name, copied: [], alreadyThere: [])
        for version in try source.versions() {
            _ = try DeliveryManifest.ensure(productIdentifier: name, version: version.text, in: source.folder)
            let folder = try source.folder.openDirectory(version.text)
            let staging = VersionStaging(folder: folder, name: version.text, in: nil)
            staging.files = try ContentManifest.of(folder).items.compactMap {
                $0.kind == "file" ? ($0.path, $0.size) : nil
            }
            do {
                let action = try destination.commit(
                    staging, as: version.text, force: false,
                    refusal:
                        "\(name) \(version.text) is already in \(target.location) with different content; it is left as it is there"
                )
                if action == .alreadyInstalled {
                    report.alreadyThere.append(version.text)
                } else {
                    report.copied.append(version.text)
                }
            } catch IAPKitError.refused(let message) {
                failures.append(message)
            }
        }
        if let current = source.current()?.text, (report.copied + report.alreadyThere).contains(current) {
            let pinned = source.retention().pinned == current
            try destination.activate(current, pinning: pinned) { _, _ in true }
            report.current = current
            report.pinned = pinned ? current : nil
        }
        return report
    }
}
