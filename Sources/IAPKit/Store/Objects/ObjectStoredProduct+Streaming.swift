import IAPDelivery

extension ObjectStoredProduct {
    /// Publishes a validated package as `version` straight from the package, nothing staged on
    /// disk (`PackageObjectStreamer`), under the same steps as `commit`: claimed first, leftovers
    /// of a killed attempt cleared, content sent, manifest last. Nil when the package cannot go so
    /// (hard links, whose bytes come from another member): the caller stages it instead.
    package func publishDirectly(_ package: ValidatedPackage, as version: String, force: Bool, refusal: String) throws
        -> DirectPublish?
    {
        let streamer = PackageObjectStreamer(
            archive: package.archive, parts: package.parts, entries: package.entries, digests: package.digests)
        guard let items = try streamer.manifestItems() else { return nil }
        let manifest = ManifestWriter.bytes(productIdentifier: productIdentifier, version: version, items: items)
        let files = items.compactMap { $0.isFile ? ($0.path, $0.size) : nil }
        let action = try publish(manifest, files: files, as: version, force: force, refusal: refusal) {
            publication, present in
            try streamer.send(to: bucket, prefix: publication.prefix, present: present)
        }
        let entries = streamer.entries.filter { !$0.components.isEmpty }
        let bytes = entries.reduce(UInt64(0)) { $0 &+ ($1.kind == .file ? $1.size : 0) }
        return DirectPublish(action: action, entries: entries.count, bytes: bytes)
    }
}
