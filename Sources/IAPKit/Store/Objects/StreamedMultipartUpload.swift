import IAPSystem

/// One large file going up as a multipart upload while its parts are still being decoded: the
/// parts' ETags as they come back, and the upload completed by whoever ends last (the producer
/// sealing it once every part is queued and the file's bytes are checked, or the worker of the
/// last part to land). An upload never sealed is never completed; its publisher aborts it.
///
/// `@unchecked Sendable`: `landedParts`, `pending` and `completed` are read and written only inside
/// `lock.withLock`; the rest is constant.
final class StreamedMultipartUpload: @unchecked Sendable {
    let key: String
    let id: String
    let bucket: any ObjectBucket
    private let lock = ConditionLock()
    private var landedParts: [UploadedObjectPart?] = []
    /// Parts queued and not yet landed, plus one until the producer seals the upload.
    private var pending = 1
    private var completed = false

    /// The multipart upload `id` to `key`, started by the caller.
    init(key: String, id: String, bucket: any ObjectBucket) {
        self.key = key
        self.id = id
        self.bucket = bucket
    }

    /// Whether the object is complete in the store.
    var isCompleted: Bool { lock.withLock { completed } }

    /// Queues the next part, whose bytes hash to `sha256`, into `pipeline`; its buffer goes back
    /// to `pool` once sent.
    func submitPart(_ bytes: [UInt8], sha256: [UInt8], to pipeline: ObjectUploadPipeline, returningTo pool: ChunkPool)
        throws
    {
        let number = lock.withLock {
            landedParts.append(nil)
            pending += 1
            return landedParts.count
        }
        // The job moves the buffer out of this box, so that once sent the pool gets its only
        // reference (a closure's capture cannot be given away) and the next part is read into it
        // in place. A part that failed is not given back: the pass ends.
        let held = Locked(bytes)
        try pipeline.submit(bytes: bytes.count) { [self] in
            let body = held.withLock { buffer in
                defer { buffer = [] }
                return buffer
            }
            let part = try bucket.uploadPart(key, upload: id, number: number, body, sha256: sha256)
            pool.give(consume body)
            try landed { landedParts[number - 1] = part }
        }
    }

    /// Says every part is queued; completes the upload here if they have all landed.
    func seal() throws { try landed {} }

    /// Records a landing (`record`, under the lock); the last one completes the upload.
    private func landed(_ record: () -> Void) throws {
        let parts: [UploadedObjectPart]? = lock.withLock {
            record()
            pending -= 1
            return pending == 0 ? landedParts.compactMap { $0 } : nil
        }
        guard let parts else { return }
        try bucket.completeUpload(key, upload: id, parts: parts)
        lock.withLock { completed = true }
    }
}
