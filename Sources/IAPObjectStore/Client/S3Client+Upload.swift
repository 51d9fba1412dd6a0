package import IAPSystem

/// How a file goes up: one PUT up to `multipartThreshold` bytes, else parts of `partSize` bytes,
/// `parallelism` at a time, each streamed from the file (memory stays at libcurl's buffers per part).
package struct S3UploadPlan: Sendable, Equatable {
    /// Files up to this size go up in one PUT.
    package var multipartThreshold: UInt64
    /// Bytes per part (8-64 MiB; S3 takes 5 MiB to 5 GiB, at most 10,000 parts).
    package var partSize: UInt64
    /// Parts of one file in flight at once.
    package var parallelism: Int
    /// Files in flight at once, for `upload(files:plan:)`.
    package var fileParallelism: Int

    /// A plan from its parts; by default 16 MiB parts, 4 at a time, above 16 MiB, and 16 files at a time.
    package init(
        multipartThreshold: UInt64 = 16 << 20, partSize: UInt64 = 16 << 20, parallelism: Int = 4,
        fileParallelism: Int = 16
    ) {
        self.multipartThreshold = multipartThreshold
        self.partSize = max(5 << 20, partSize)
        self.parallelism = max(1, parallelism)
        self.fileParallelism = max(1, fileParallelism)
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
        return try ParallelRequests.run(count: count, width: plan.parallelism) { index throws(S3Error) in
            let start = UInt64(index) * partSize
            return try self.uploadPart(
                key, uploadID: uploadID, number: index + 1, file: file, offset: offset + start,
                length: min(partSize, length - start))
        }
    }
}
