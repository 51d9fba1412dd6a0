import IAPCrypto
import IAPSystem

/// One product of an object store (PackageFormat.md §11). There is no lock: every step that
/// others race for is a conditional write. A version is claimed first (`If-None-Match: *` on its
/// claim, which records the manifest's SHA-256), so two publishers of one version never mix
/// content; its objects go up next and its manifest last, so a version is installed exactly when
/// its manifest is there; `current.json` is replaced last and only against the ETag read
/// (`If-Match`, or `If-None-Match: *` for the first), with the decision taken again when another
/// publisher won the race.
package final class ObjectStoredProduct: StoredProduct {
    package let productIdentifier: String
    let bucket: any ObjectBucket
    /// How many times a conditional replacement of `current.json` is tried before giving up.
    static let attempts = 50

    init(_ productIdentifier: String, in bucket: any ObjectBucket) {
        self.productIdentifier = productIdentifier
        self.bucket = bucket
    }

    package func versions() throws -> [ContentVersion] {
        ObjectStoreListing.versions(of: productIdentifier, in: try bucket.list(prefix: productIdentifier + "/"))
            .map(\.version)
    }

    package func current() throws -> ContentVersion? {
        try bucket.get(ObjectStoreLayout.pointer(productIdentifier)).flatMap {
            CurrentPointerText.version(in: $0.bytes)
        }
        .flatMap(ContentVersion.init)
    }

    package func retention() throws -> VersionRetention {
        try bucket.get(ObjectStoreLayout.retention(productIdentifier)).map { VersionRetention(text: $0.bytes) }
            ?? VersionRetention()
    }

    package func installedName(of version: ContentVersion) throws -> String? {
        try versions().first { $0 == version }?.text
    }

    /// Nothing to do before a publish: what a killed publish left under a version is removed when
    /// that version is published again (`commit`), the only time it is known to be abandoned.
    package func removeStaleWork() throws {}

    package func makeStaging(bytes: UInt64, entries: Int) throws -> VersionStaging {
        let scratch = try TemporaryFolder(prefix: "iapkg-publish-")
        let parent = try DirectoryHandle.open(scratch.path)
        let needed = bytes &+ UInt64(entries) * 4096
        let available = try parent.availableBytes()
        guard needed <= available else {
            throw IAPKitError.system(
                SystemError(
                    "stage the version for \(bucket.location) (needs about \(needed) bytes, \(available) free; set TMPDIR to a larger disk) in",
                    path: scratch.path, code: SystemError.Code.noSpace))
        }
        try parent.makeDirectory("version", mode: 0o700)
        return VersionStaging(
            folder: try parent.openDirectory("version"), name: "version", in: parent, scratch: scratch)
    }

    package func commit(_ staging: VersionStaging, as version: String, force: Bool, refusal: String) throws
        -> UnpackReport.Action
    {
        let manifest = try staging.folder.readFile(DeliveryManifest.fileName, limit: Int.max)
        return try publish(manifest, files: staging.files, as: version, force: force, refusal: refusal) {
            publication, present in
            try publication.uploadContent(from: staging.folder, present: present)
        }
    }

    /// Publishes the version whose manifest is `manifest` and whose regular files are `files`:
    /// found installed with the same manifest, or claimed (other content claimed first is
    /// refused with `refusal`), its leftovers of a killed attempt cleared, its content sent by
    /// `upload` (given what is already there) and its manifest written last.
    func publish(
        _ manifest: [UInt8], files: [(path: String, size: UInt64)], as version: String, force: Bool,
        refusal: String, upload: (ObjectVersionPublication, _ present: [String: UInt64]) throws -> Void
    ) throws -> UnpackReport.Action {
        let sha = Hex.encode(DigestHasher.digest(.sha256, of: manifest))
        let refused = force ? refusal + " (a version in an object store is immutable; publish a new version)" : refusal
        if let installed = try bucket.get(ObjectStoreLayout.manifest(productIdentifier, version)) {
            guard Hex.encode(DigestHasher.digest(.sha256, of: installed.bytes)) == sha else {
                throw IAPKitError.refused(refused)
            }
            return .alreadyInstalled
        }
        try claim(version, manifestSHA256: sha, refusal: refused)
        let publication = ObjectVersionPublication(
            product: productIdentifier, version: version, files: files, bucket: bucket)
        try upload(publication, try publication.clearLeftovers())
        // Last: from now on the version is installed, and `current.json` may name it.
        try bucket.put(
            ObjectStoreLayout.manifest(productIdentifier, version), manifest,
            headers: ObjectHeaders(contentType: "application/json", cacheControl: ObjectStoreLayout.uncached),
            condition: .none)
        return .installed
    }

    /// Claims `version` for content whose manifest hashes to `sha`: the first publisher's claim
    /// stands; the same content may go on (a rerun, or a second publisher of the same package),
    /// other content is refused before any of its objects is written.
    private func claim(_ version: String, manifestSHA256 sha: String, refusal: String) throws {
        let key = ObjectStoreLayout.claim(productIdentifier, version)
        let text = Array("manifestSHA256 \(sha)\n".utf8)
        let headers = ObjectHeaders(contentType: "text/plain; charset=utf-8", cacheControl: ObjectStoreLayout.uncached)
        do {
            try bucket.put(key, text, headers: headers, condition: .absent)
        } catch is ObjectBucketConflict {
            guard let held = try bucket.get(key), held.bytes == text else {
                throw IAPKitError.refused(
                    refusal
                        + " (another publisher claimed \(productIdentifier) \(version) for other content in \(bucket.location); if that publish was abandoned, publish a new version)"
                )
            }
        }
    }

    package func activate(
        _ version: String, pinning: Bool,
        if allowed: (_ current: ContentVersion?, _ retention: VersionRetention) throws -> Bool
    ) throws -> Bool {
        let pointerKey = ObjectStoreLayout.pointer(productIdentifier)
        let retentionKey = ObjectStoreLayout.retention(productIdentifier)
        for _ in 0..<Self.attempts {
            let pointer = try bucket.get(pointerKey)
            let currentText = pointer.flatMap { CurrentPointerText.version(in: $0.bytes) }
            let current = currentText.flatMap(ContentVersion.init)
            let stored = try bucket.get(retentionKey)
            let state = stored.map { VersionRetention(text: $0.bytes) } ?? VersionRetention()
            guard try allowed(current, state) else { return currentText == version }
            guard let manifest = try bucket.get(ObjectStoreLayout.manifest(productIdentifier, version)) else {
                throw IAPKitError.refused(
                    "\(productIdentifier) \(version) is not installed in \(bucket.location) (no manifest); publish it first"
                )
            }
            let chosen = ContentVersion(version)
            let newer = try pinning && chosen.map { chosen in try versions().contains { $0 > chosen } } ?? false
            let next = state.activating(
                version, previous: currentText, pinning: pinning, newerInstalled: newer, now: WallClock.now().seconds)
            let sha = Hex.encode(DigestHasher.digest(.sha256, of: manifest.bytes))
            do {
                if next != state {
                    try bucket.put(
                        retentionKey, next.text, headers: Self.bookkeepingHeaders,
                        condition: stored.map { .matching($0.etag) } ?? .absent)
                }
                try bucket.put(
                    pointerKey,
                    DeliveryManifest.pointer(
                        productIdentifier: productIdentifier, version: version, manifestSHA256: sha),
                    headers: ObjectHeaders(contentType: "application/json", cacheControl: ObjectStoreLayout.uncached),
                    condition: pointer.map { .matching($0.etag) } ?? .absent)
                return true
            } catch is ObjectBucketConflict {
                continue  // another publisher moved current or the pins: read both again, decide again
            }
        }
        throw IAPKitError.failed(
            "\(bucket.location): \(productIdentifier)'s current.json kept changing under \(Self.attempts) attempts to replace it; try again"
        )
    }

    package func prune(keep: Int, grace: Int64) throws -> [String] {
        let stored = try bucket.get(ObjectStoreLayout.retention(productIdentifier))
        let state = stored.map { VersionRetention(text: $0.bytes) } ?? VersionRetention()
        let current = try current()?.text
        let plan = state.pruning(
            try versions(), current: current, keep: keep, grace: grace, now: WallClock.now().seconds)
        var removed: [String] = []
        for version in plan.removed where try self.current()?.text != version {
            try ObjectVersionPublication.remove(version, of: productIdentifier, in: bucket)
            removed.append(version)
        }
        if plan.state != state {
            // A lost race here only forgets facts about removed versions: the next prune writes them.
            _ = try? bucket.put(
                ObjectStoreLayout.retention(productIdentifier), plan.state.text, headers: Self.bookkeepingHeaders,
                condition: stored.map { .matching($0.etag) } ?? .absent)
        }
        return removed
    }

    package func location(of version: String) -> String {
        bucket.location + (bucket.location.hasSuffix("/") ? "" : "/")
            + ObjectStoreLayout.version(productIdentifier, version)
    }

    static let bookkeepingHeaders = ObjectHeaders(
        contentType: "text/plain; charset=utf-8", cacheControl: ObjectStoreLayout.uncached)
}

/// The version named by a `current.json` the store wrote (`"version":"1.2"`; versions are digits
/// and periods, so no escapes).
enum CurrentPointerText {
    /// The version in `bytes`, or nil when there is none.
    static func version(in bytes: [UInt8]) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let start = text.firstRange(of: "\"version\":\"")?.upperBound,
            let end = text[start...].firstIndex(of: "\"")
        else { return nil }
        return String(text[start..<end])
    }
}
