import IAPSystem

/// The objects of one version going into a bucket: every file of the manifest at
/// `<product>/<version>/<path>` with its `Content-Type` and an immutable `Cache-Control` (symlinks
/// are listed in the manifest only: a bucket has none), sent from a local staging folder or
/// straight from the package (`PackageObjectStreamer`).
struct ObjectVersionPublication {
    let product: String
    let version: String
    /// The regular files of the version (path below it, size), as its manifest lists them.
    let files: [(path: String, size: UInt64)]
    let bucket: any ObjectBucket

    /// Keys below the version.
    var prefix: String { ObjectStoreLayout.version(product, version) }

    /// Removes what an earlier, killed attempt at this version left: its unfinished multipart
    /// uploads, and any object below the version that this content does not have. Objects it
    /// finished with the same key and size stay (the claim says it was this same content).
    /// Returns the objects left, with their sizes.
    func clearLeftovers() throws -> [String: UInt64] {
        try bucket.abortUploads(prefix: prefix)
        let wanted = Dictionary(uniqueKeysWithValues: files.map { (prefix + $0.path, $0.size) })
        var present: [String: UInt64] = [:]
        for object in try bucket.list(prefix: prefix) {
            if wanted[object.key] == object.size {
                present[object.key] = object.size
            } else {
                try bucket.delete(object.key)
            }
        }
        return present
    }

    /// Uploads every file of the version from `staging` but those `present` with their size (a
    /// rerun after a kill sends only what is missing); the manifest is left for the caller, to go last.
    func uploadContent(from staging: DirectoryHandle, present: [String: UInt64]) throws {
        let uploads = files.compactMap { file -> FileUpload? in
            let key = prefix + file.path
            guard present[key] != file.size else { return nil }
            return FileUpload(
                path: staging.child(file.path), key: key, size: file.size,
                headers: ObjectHeaders(
                    contentType: ObjectStoreLayout.contentType(of: file.path), cacheControl: ObjectStoreLayout.immutable
                ))
        }
        try bucket.upload(uploads)
    }

    /// Removes an installed version: its manifest first (from then on it is not installed, and
    /// nothing activates it), then its objects, then its claim.
    static func remove(_ version: String, of product: String, in bucket: any ObjectBucket) throws {
        try bucket.delete(ObjectStoreLayout.manifest(product, version))
        for object in try bucket.list(prefix: ObjectStoreLayout.version(product, version)) {
            try bucket.delete(object.key)
        }
        try bucket.delete(ObjectStoreLayout.claim(product, version))
    }
}
