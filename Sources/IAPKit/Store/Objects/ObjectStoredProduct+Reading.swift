import IAPCrypto
import IAPDelivery
import IAPSystem

/// Reading an installed version of an object store: its manifest alone, or every object it lists
/// downloaded into a local folder and checked against it.
extension ObjectStoredProduct {
    package func manifest(of version: String) throws -> VersionManifest {
        try StoredManifest.decode(try manifestBytes(version), productIdentifier, version, at: location(of: version))
    }

    package func readableFolder(of version: String, scratch: String) throws -> ReadableVersion {
        let bytes = try manifestBytes(version)
        let manifest = try StoredManifest.decode(bytes, productIdentifier, version, at: location(of: version))
        let copy = try TemporaryFolder(in: scratch, prefix: ".iapkg-read-\(CurrentProcess.id)-")
        let root = try DirectoryHandle.open(copy.path)
        var folders: Set<String> = []
        for path in manifest.files.map(\.path) + manifest.symlinks.map(\.path) {
            var parent = ""
            for name in path.split(separator: "/").dropLast() {
                parent += (parent.isEmpty ? "" : "/") + name
                if folders.insert(parent).inserted { try FileSystem.makeDirectory(root.child(parent)) }
            }
        }
        for link in manifest.symlinks {
            let parent = PathText.parent(of: link.path)
            let folder = link.path.contains("/") ? try DirectoryHandle.open(root.child(parent)) : root
            try folder.makeSymlink(PathText.lastComponent(of: link.path), target: link.target)
        }
        let prefix = ObjectStoreLayout.version(productIdentifier, version)
        try bucket.download(
            manifest.files.map {
                FileDownload(key: prefix + $0.path, path: $0.path, mode: UInt32($0.mode, radix: 8) ?? 0o644)
            },
            into: root)
        for file in manifest.files {
            let local = try FileDescriptor.openForReading(root.child(file.path))
            let size = try local.size()
            let sha = Hex.encode(try DigestHasher.digest(.sha256, ofRestOf: local))
            guard size == file.size, sha == file.sha256 else {
                throw IAPKitError.failed(
                    "\(location(of: version))\(file.path): the object (\(size) bytes, SHA-256 \(sha)) is not the file the version's manifest lists (\(file.size) bytes, \(file.sha256)); it was changed or damaged in the bucket after it was published"
                )
            }
        }
        try root.writeAtomically(DeliveryManifest.fileName, bytes)
        return ReadableVersion(path: copy.path, copy: copy)
    }

    /// The bytes of `version`'s manifest; an error when the version is not installed.
    private func manifestBytes(_ version: String) throws -> [UInt8] {
        guard let stored = try bucket.get(ObjectStoreLayout.manifest(productIdentifier, version)) else {
            throw IAPKitError.failed(
                "\(bucket.location) holds no installed version \(version) of \(productIdentifier) (no \(ObjectStoreLayout.manifest(productIdentifier, version))); `iapkg list \(bucket.location)` shows those it holds"
            )
        }
        return stored.bytes
    }
}
