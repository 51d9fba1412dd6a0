package import IAPKit
internal import IAPObjectStore
package import IAPSystem

/// IAPKit's object version store (`ObjectBucket`) on IAPObjectStore's S3 client: keys below the
/// store URL's prefix, files uploaded several at a time (large ones as parallel multipart uploads),
/// and the client's errors as the store's: a lost condition is `ObjectBucketConflict`; a store
/// that cannot be reached, refuses the credentials or has no such bucket is an
/// `IAPKitError.system` (exit 2, and `serve` tries the package again later, as after a full disk).
package struct S3ObjectBucket: ObjectBucket {
    let client: S3Client
    let store: S3Location
    package var location: String { store.description }

    /// Opens `url` (`s3://BUCKET/PREFIX`) as a version store, with credentials and endpoint from
    /// the environment as the AWS tools read them.
    package static func openStorage(_ url: String) throws -> any VersionStorage {
        do {
            let store = try S3Location(url)
            return ObjectVersionStorage(S3ObjectBucket(client: try S3Client(location: store), store: store))
        } catch {
            throw translate(error)
        }
    }

    /// Makes `s3://` store URLs open through this client everywhere in the process.
    package static func register() { ObjectStoreOpening.shared.register(openStorage) }

    package func get(_ key: String) throws -> StoredObject? {
        do {
            let object = try client.get(store.key(key), maxBytes: 256 << 20)
            return StoredObject(bytes: object.bytes, etag: object.info.etag)
        } catch  where error.kind == .notFound {
            return nil
        } catch {
            throw Self.translate(error)
        }
    }

    package func put(_ key: String, _ bytes: [UInt8], headers: ObjectHeaders, condition: WriteCondition) throws
        -> String
    {
        do {
            return try client.put(store.key(key), bytes: bytes, options: Self.options(headers, condition))
        } catch  where error.kind == .preconditionFailed {
            throw ObjectBucketConflict(key: key)
        } catch {
            throw Self.translate(error)
        }
    }

    package func upload(_ files: [FileUpload]) throws {
        let uploads = files.map { file in
            S3FileUpload(path: file.path, key: store.key(file.key), options: Self.options(file.headers, .none))
        }
        do { _ = try client.upload(files: uploads) } catch { throw Self.translate(error) }
    }

    package func download(_ files: [FileDownload], into folder: DirectoryHandle) throws -> [UInt64] {
        let downloads = files.map { S3FileDownload(key: store.key($0.key), path: $0.path, mode: $0.mode) }
        do { return try client.download(files: downloads, into: folder) } catch { throw Self.translate(error) }
    }

    package func putContent(_ key: String, _ bytes: [UInt8], sha256: [UInt8], headers: ObjectHeaders) throws {
        var options = Self.options(headers, .none)
        options.sha256 = sha256
        do { _ = try client.put(store.key(key), bytes: bytes, options: options) } catch { throw Self.translate(error) }
    }

    package func putStreamed(
        _ key: String, from body: any ObjectBodySource, length: UInt64, sha256: [UInt8], headers: ObjectHeaders
    ) throws {
        do {
            try client.put(
                store.key(key), stream: SourceStream(body), length: length, sha256: sha256,
                options: Self.options(headers, .none))
        } catch  where error.sendAgain {
            throw ObjectBucketBusy(Self.translate(error))
        } catch {
            throw Self.translate(error)
        }
    }

    package func startUpload(_ key: String, headers: ObjectHeaders) throws -> String {
        do {
            return try client.createMultipartUpload(
                store.key(key), options: Self.options(headers, .none), partsCarrySHA256: true)
        } catch {
            throw Self.translate(error)
        }
    }

    package func uploadPart(_ key: String, upload id: String, number: Int, _ bytes: [UInt8], sha256: [UInt8]) throws
        -> UploadedObjectPart
    {
        do {
            let part = try client.uploadPart(store.key(key), uploadID: id, number: number, bytes: bytes, sha256: sha256)
            return UploadedObjectPart(etag: part.etag, sha256: sha256)
        } catch {
            throw Self.translate(error)
        }
    }

    package func completeUpload(_ key: String, upload id: String, parts: [UploadedObjectPart]) throws {
        let numbered = parts.enumerated().map {
            S3UploadedPart(number: $0.offset + 1, etag: $0.element.etag, sha256: $0.element.sha256)
        }
        do { try client.completeMultipartUpload(store.key(key), uploadID: id, parts: numbered) } catch {
            throw Self.translate(error)
        }
    }

    package func abortUpload(_ key: String, upload id: String) throws {
        do { try client.abortMultipartUpload(store.key(key), uploadID: id) } catch  where error.kind == .notFound {
            return  // finished or aborted meanwhile
        } catch {
            throw Self.translate(error)
        }
    }

    package func delete(_ key: String) throws {
        do { try client.delete(store.key(key)) } catch { throw Self.translate(error) }
    }

    package func list(prefix: String) throws -> [ObjectSummary] {
        let base = store.key("")
        do {
            return try client.listAll(prefix: store.key(prefix)).objects.compactMap { object in
                guard object.key.hasPrefix(base) else { return nil }
                return ObjectSummary(key: String(object.key.dropFirst(base.count)), size: object.size)
            }
        } catch {
            throw Self.translate(error)
        }
    }

    package func abortUploads(prefix: String) throws -> Int {
        do {
            let uploads = try client.listMultipartUploads(prefix: store.key(prefix))
            for upload in uploads {
                do {
                    try client.abortMultipartUpload(upload.key, uploadID: upload.uploadID)
                } catch  where error.kind == .notFound {
                    continue  // finished or aborted meanwhile
                }
            }
            return uploads.count
        } catch {
            throw Self.translate(error)
        }
    }

    private static func options(_ headers: ObjectHeaders, _ condition: WriteCondition) -> S3PutOptions {
        let wanted: S3WriteCondition =
            switch condition {
            case .none: .none
            case .absent: .ifAbsent
            case .matching(let etag): .ifMatch(etag)
            }
        return S3PutOptions(contentType: headers.contentType, cacheControl: headers.cacheControl, condition: wanted)
    }

    /// The client's error as the store's: what failed, where, and what to check (never a secret).
    static func translate(_ error: any Error) -> any Error {
        error is S3Error ? failure(error) : error
    }

    /// What is the store's doing (unreachable, busy, credentials, access, bucket, settings) is a
    /// system error, which `serve` retries with backoff instead of rejecting the package; the rest
    /// is a failure to do the job (exit 2 either way).
    static func failure(_ error: any Error) -> IAPKitError {
        guard let error = error as? S3Error else { return .failed("\(error)") }
        switch error.kind {
        case .unavailable, .accessDenied, .invalidCredentials, .noSuchBucket, .invalidConfiguration:
            return .system(SystemError(error.description, code: SystemError.Code.io))
        case .notFound, .preconditionFailed, .integrityMismatch, .other:
            return .failed(error.description)
        }
    }
}

/// An object body's source as the client's request body.
private final class SourceStream: HTTPBodyStream {
    let source: any ObjectBodySource

    init(_ source: any ObjectBodySource) { self.source = source }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int { try source.read(into: buffer) }
}
