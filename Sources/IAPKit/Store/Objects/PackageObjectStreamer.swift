import IAPCrypto
import IAPSystem
import XarKit

/// A validated package's files sent into a bucket straight from the package, with nothing staged
/// on disk: each file decoded again from the xar heap (a tree package's own range, or the
/// Payload's stream in order) into memory and sent while the next one is decoded, many requests
/// in flight (`ObjectUploadPipeline`); a large file goes up as a multipart upload whose parts are
/// sent as they are read. Every PUT and part carries the SHA-256 validation took of its bytes
/// (the file's, which its manifest lists, or the part's), and the store refuses other bytes: a
/// file that decodes differently now is never stored, and nothing is hashed a second time.
struct PackageObjectStreamer {
    /// The package, as validation left it.
    let archive: XarArchive
    let parts: PackageParts
    let entries: [ContentEntry]
    /// Each entry's SHA-256, as validation decoded it.
    let digests: [ContentDigest]

    /// Requests in flight at once: small files are mostly waiting for the store's answer.
    static let requestsInFlight = 32
    /// Bytes decoded and not yet landed, at most (plus the file or part being read): three parts.
    /// With 40 MiB the media corpus's publish peaked at 96.9 MiB resident (2026-11-28), too near
    /// the 100 MiB every command keeps under.
    static let bytesInFlight = 24 << 20

    /// The manifest's items: every file with its size and SHA-256, every symlink (which must stay
    /// inside Contents/) with its target; none for a package with hard links (nil: stage it instead).
    func manifestItems() throws -> [StagedManifestItem]? {
        guard digests.count == entries.count, !entries.contains(where: { $0.kind == .hardlink }) else { return nil }
        var items: [StagedManifestItem] = []
        items.reserveCapacity(entries.count)
        let resolver = entries.contains { $0.kind == .symlink } ? SymlinkResolver(entries: entries) : nil
        for (index, entry) in entries.enumerated() where !entry.components.isEmpty {
            let sequence = UInt32(truncatingIfNeeded: index)
            switch entry.kind {
            case .file:
                items.append(
                    StagedManifestItem(
                        path: entry.path, sequence: sequence, size: entry.size, sha256: try digest(at: index).sha256,
                        target: nil))
            case .symlink:
                guard let target = try resolver?.targetInsideContents(of: entry) else { continue }
                items.append(
                    StagedManifestItem(path: entry.path, sequence: sequence, size: 0, sha256: nil, target: target))
            case .directory: continue
            default: throw IAPKitError.failed("\(entry.rawPath) is a \(entry.kind.name); it cannot be unpacked")
            }
        }
        return StagedManifestItem.latestPerPath(items)
    }

    /// Passes over the package at most, the first included: a streamed file whose PUT failed for
    /// now only (the store busy or out of reach) is sent again by the next pass, after a random
    /// pause of up to 0.2, 0.4, 0.8 and 1.6 s, as the S3 client tries its other requests again.
    static let passes = 5

    /// Sends every file to `prefix + path` in `bucket`, but those `present` with their size.
    func send(to bucket: any ObjectBucket, prefix: String, present: [String: UInt64]) throws {
        var wanted: Set<Int>?  // nil: every file
        for pass in 1...Self.passes {
            let resend = try send(only: wanted, to: bucket, prefix: prefix, present: present)
            guard let error = resend.error else { return }
            // A package rewritten meanwhile gives other bytes again (SeaweedFS refuses them with a
            // 500, which reads as "busy"): said plainly, and not decoded again.
            if archive.changedSinceOpened { throw Self.changed(archive.path) }
            guard pass < Self.passes else { throw error }
            wanted = resend.indexes
            FileSystem.sleep(seconds: Double.random(in: 0...(0.2 * Double(1 << (pass - 1)))))
        }
    }

    /// One pass: sends the files among `wanted` (nil: all); returns those to send again.
    private func send(only wanted: Set<Int>?, to bucket: any ObjectBucket, prefix: String, present: [String: UInt64])
        throws -> (indexes: Set<Int>, error: (any Error)?)
    {
        let pipeline = ObjectUploadPipeline(width: Self.requestsInFlight, byteBudget: Self.bytesInFlight)
        var sender = FileSender(bucket: bucket, prefix: prefix, present: present, pipeline: pipeline)
        do {
            // Every file is held to validation's digests by the store: the TOC's are not taken again.
            try PackageContentReading.forEachEntry(
                entries, archive: archive, parts: parts, checkingXarDigests: false, only: wanted
            ) { index, read in
                try sender.send(entries[index], index: index, digest: try digest(at: index), read: read)
            }
            try pipeline.finish()
            return sender.resend.listed
        } catch {
            pipeline.fail(error)
            try? pipeline.finish()
            for upload in sender.uploads where !upload.isCompleted {
                try? bucket.abortUpload(upload.key, upload: upload.id)
            }
            // The store refused bytes other than those validated (S3: BadDigest; SeaweedFS: an
            // internal error), or a file ended early: said plainly when the package changed.
            throw archive.changedSinceOpened ? Self.changed(archive.path) : error
        }
    }

    /// The digest validation took of entry `index`'s bytes (a file without data: the empty one's).
    private func digest(at index: Int) throws -> ContentDigest {
        if digests[index].sha256 != nil { return digests[index] }
        guard entries[index].size == 0 else { throw Self.notRead(entries[index]) }
        return ContentDigest(sha256: SHA256Value(DigestHasher.digest(.sha256, of: [])))
    }

    /// A file whose bytes validation did not hash (so they cannot be held to anything).
    static func notRead(_ entry: ContentEntry) -> IAPKitError {
        .failed("\(entry.rawPath): its bytes were not read when the package was validated")
    }

    /// The package at `path` was written while it was published.
    static func changed(_ path: String) -> IAPKitError {
        .failed(
            "\(path) changed while it was published: its bytes are no longer those validated, and no version was made of it; publish it again once it is whole"
        )
    }
}
