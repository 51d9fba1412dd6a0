import IAPSystem

/// The objects of one version going into a bucket from its local staging folder: every file of
/// the manifest at `<product>/<version>/<path>` with its `Content-Type` and an immutable
/// `Cache-Control` (symlinks are listed in the manifest only: a bucket has none).
struct ObjectVersionPublication {
    let product: String
    let version: String
    let staging: VersionStaging
    let bucket: any ObjectBucket

    /// Keys below the version, and the files of the manifest, by key.
    private var prefix: String { ObjectStoreLayout.version(product, version) }

    /// Removes what an earlier, killed attempt at this version left: its unfinished multipart
    /// uploads, and any object below the version that this content does not have. Objects it
    /// finished with the same key and size stay (the claim says it was this same content).
    func clearLeftovers() throws {
        try bucket.abortUploads(prefix: prefix)
        let wanted = Dictionary(uniqueKeysWithValues: files().map { ($0.key, $0.size) })
        for object in try bucket.list(prefix: prefix) where wanted[object.key] != object.size {
            try bucket.delete(object.key)
        }
    }

    /// Uploads every file of the version not already there with its size (a rerun after a kill
    /// sends only what is missing); the manifest is left for the caller, to go last.
    func uploadContent() throws {
        let present = Dictionary(
            try bucket.list(prefix: prefix).map { ($0.key, $0.size) }, uniquingKeysWith: { a, _ in a })
        try bucket.upload(files().filter { present[$0.key] != $0.size })
    }

    /// Each file the staged manifest lists, as an upload.
    private func files() -> [FileUpload] {
        staging.files.map { file in
            FileUpload(
                path: staging.folder.child(file.path), key: prefix + file.path, size: file.size,
                headers: ObjectHeaders(
                    contentType: ObjectStoreLayout.contentType(of: file.path), cacheControl: ObjectStoreLayout.immutable
                ))
        }
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
