package import IAPSystem

/// How a file goes up: one PUT up to `multipartThreshold` bytes, else parts of `partSize` bytes,
/// `parallelism` at a time, each streamed from the file (memory stays at libcurl's buffers per part).
package struct S3UploadPlan: Sendable, Equatable {
    /// Files up to this size go up in one PUT.
    package var multipartThreshold: UInt64
    /// Bytes per part (8-64 MiB; S3 takes 5 MiB to 5 GiB, at most 10,000 parts).
    package var partSize: UInt64
    /// Parts in flight at once.
    package var parallelism: Int

    /// A plan from its parts; by default 16 MiB parts, 4 at a time, above 16 MiB.
    package init(multipartThreshold: UInt64 = 16 << 20, partSize: UInt64 = 16 << 20, parallelism: Int = 4) {
        self.multipartThreshold = multipartThreshold
        self.partSize = max(5 << 20, partSize)
        self.parallelism = max(1, parallelism)
    }

    /// The part size for `length` bytes: the plan's, grown so no more than 10,000 parts are needed.
    func partSize(for length: UInt64) -> UInt64 { max(partSize, (length + 9_999) / 10_000) }
}

extension S3Client {
    /// Writes `length` bytes of `file` from `offset` at `key`: one PUT when small, else a multipart
    /// upload with parallel parts, each checked by the store (`Content-MD5`), completed under
    /// `options`' condition. A failed multipart upload is aborted before the error is thrown, so
    /// no parts are left behind. Returns the new ETag.
    @discardableResult
    package func upload(
        _ key: String, file: FileDescriptor, offset: UInt64 = 0, length: UInt64, options: S3PutOptions = S3PutOptions(),
        plan: S3UploadPlan = S3UploadPlan()
    ) throws(S3Error) -> String {
        guard length > plan.multipartThreshold else {
            return try put(key, file: file, offset: offset, length: length, options: options)
        }
        let uploadID = try createMultipartUpload(key, options: options)
        do {
            let parts = try uploadParts(key, uploadID: uploadID, file: file, offset: offset, length: length, plan: plan)
            return try completeMultipartUpload(key, uploadID: uploadID, parts: parts, condition: options.condition)
        } catch {
            try? abortMultipartUpload(key, uploadID: uploadID)
            throw error
        }
    }

    /// Sends every part of the range on `plan.parallelism` threads; the first failure stops the rest.
    private func uploadParts(
        _ key: String, uploadID: String, file: FileDescriptor, offset: UInt64, length: UInt64, plan: S3UploadPlan
    ) throws(S3Error) -> [S3UploadedPart] {
        let partSize = plan.partSize(for: length)
        let count = Int((length + partSize - 1) / partSize)
        let queue = PartQueue(count: count)
        let workers = (0..<min(plan.parallelism, count)).map { _ in
            ConcurrentResult { () -> S3Error? in
                while let index = queue.next() {
                    let start = UInt64(index) * partSize
                    do throws(S3Error) {
                        let part = try self.uploadPart(
                            key, uploadID: uploadID, number: index + 1, file: file, offset: offset + start,
                            length: min(partSize, length - start))
                        queue.finish(part)
                    } catch {
                        queue.stop()
                        return error
                    }
                }
                return nil
            }
        }
        let failures = workers.compactMap { $0.value() }
        if let failure = failures.first { throw failure }
        return queue.finished
    }
}

/// The part numbers still to send and the parts sent, shared by the upload threads. `@unchecked
/// Sendable`: `nextIndex`, `stopped` and `parts` are read and written only while holding `lock`.
private final class PartQueue: @unchecked Sendable {
    private let lock = ConditionLock()
    private let count: Int
    private var nextIndex = 0
    private var stopped = false
    private var parts: [S3UploadedPart] = []

    init(count: Int) { self.count = count }

    /// The next part's index (0-based), or nil when none is left or a part failed.
    func next() -> Int? {
        lock.withLock {
            guard !stopped, nextIndex < count else { return nil }
            defer { nextIndex += 1 }
            return nextIndex
        }
    }

    /// Records a part sent.
    func finish(_ part: S3UploadedPart) { lock.withLock { parts.append(part) } }

    /// Stops handing out parts.
    func stop() { lock.withLock { stopped = true } }

    /// The parts sent, in number order.
    var finished: [S3UploadedPart] { lock.withLock { parts.sorted { $0.number < $1.number } } }
}
