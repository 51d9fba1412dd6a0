package import IAPSystem

/// A local file to store at a key.
package struct S3FileUpload: Sendable, Equatable {
    /// The file's path on this machine (a symlink as its last component is refused).
    package var path: String
    /// The whole key it goes to.
    package var key: String
    /// Its headers and condition.
    package var options: S3PutOptions

    /// A file to upload.
    package init(path: String, key: String, options: S3PutOptions = S3PutOptions()) {
        self.path = path
        self.key = key
        self.options = options
    }
}

extension S3Client {
    /// Uploads `files`, `plan.fileParallelism` at a time, each as `upload(_:file:…)` does (one PUT,
    /// or parallel parts above the threshold), each checked by the store as it lands. The first
    /// failure stops starting more (those in flight finish) and is thrown; a file that cannot be
    /// opened or read is an `.other` error naming it. Returns the ETags in the order of `files`.
    @discardableResult
    package func upload(files: [S3FileUpload], plan: S3UploadPlan = S3UploadPlan()) throws(S3Error) -> [String] {
        try ParallelRequests.run(count: files.count, width: plan.fileParallelism) { index throws(S3Error) in
            let upload = files[index]
            let file: FileDescriptor
            let size: UInt64
            do {
                file = try FileSystem.openNoFollow(upload.path)
                size = try file.size()
            } catch {
                throw S3Error(
                    .other, operation: "PUT", bucket: self.bucket, key: upload.key,
                    message: "cannot read \(upload.path): \(error)")
            }
            return try self.upload(upload.key, file: file, length: size, options: upload.options, plan: plan)
        }
    }
}

/// An object to store in a new local file.
package struct S3FileDownload: Sendable {
    /// The whole key it comes from.
    package var key: String
    /// The file's path below the folder it is written into (its folders already there).
    package var path: String
    /// The new file's permission bits.
    package var mode: UInt32

    /// An object to download to `path` with permission bits `mode`.
    package init(key: String, path: String, mode: UInt32) {
        self.key = key
        self.path = path
        self.mode = mode
    }
}

extension S3Client {
    /// Downloads `files` into new files below `folder` (never through a symlink, never over a file
    /// that is there), `width` at a time, each streamed to disk; the first failure stops starting
    /// more and is thrown. Returns the bytes each file received, in the order of `files`.
    @discardableResult
    package func download(files: [S3FileDownload], into folder: DirectoryHandle, width: Int = 16) throws(S3Error)
        -> [UInt64]
    {
        try ParallelRequests.run(count: files.count, width: width) { index throws(S3Error) in
            let download = files[index]
            let file: FileDescriptor
            do {
                file = try folder.createFile(beneath: download.path, mode: download.mode)
            } catch {
                throw S3Error(
                    .other, operation: "GET", bucket: self.bucket, key: download.key,
                    message: "cannot create \(folder.child(download.path)): \(error)")
            }
            return try self.get(download.key, into: file).size
        }
    }
}
