#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One file of a version fetched into a part file (a small one straight into its place in the
/// staging folder), in ranges of at most ``rangeSize`` bytes:
/// resumed from the bytes already there (`If-Range` with the validator the first answer gave, so
/// a file changed on the server comes whole), hashed as the bytes arrive, checked against the
/// manifest's size and SHA-256. Not flushed here: a resumed run verifies every staged file again,
/// and the version is flushed once before install.
struct FileTransfer {
    let transfers: Transfers
    let file: VersionManifest.File
    let url: URL
    /// Where the bytes go; beside it, `part + ".validator"` keeps the ETag or Last-Modified.
    let part: String
    /// When given (a small file), the bytes are kept here instead of written to `part`: the
    /// caller writes them once they are verified.
    var collected: CollectedBytes? = nil

    private var validatorPath: String { part + ".validator" }
    /// Files from this size on keep a validator and are resumed; smaller ones are fetched again whole.
    static let resumableSize: UInt64 = 256 * 1024
    /// The most one request asks for. URLSession queues every piece of a body for its delegate
    /// with no flow control, so one answer is what may wait in memory when the disk is slower than
    /// the network (a 1 GiB file in one answer peaked at 420 MB on Linux's URLSession). The
    /// AsyncHTTPClient transport reads with flow control: one request for the whole file.
    #if canImport(AsyncHTTPClient)
        static let rangeSize: UInt64 = .max
    #else
        static let rangeSize: UInt64 = 8 << 20
    #endif

    /// Files from this size on are hashed on a thread of their own while they arrive.
    static let backgroundHashSize: UInt64 = 4 << 20

    /// What has been received of the part, across requests.
    private final class Received {
        var have: UInt64 = 0
        var hasher: SHA256Stream
        init(size: UInt64) { hasher = Self.newHasher(size) }

        /// A digest for a file of `size` bytes, from its first byte.
        static func newHasher(_ size: UInt64) -> SHA256Stream {
            SHA256Stream(background: size >= FileTransfer.backgroundHashSize)
        }
        var validator: String?
        /// True when the bytes come from more than one answer (a resume, several ranges).
        var joined = false
    }

    /// Fetches what the part file lacks and checks the whole; on return the part holds the
    /// manifest's bytes. Bytes joined from several answers whose digest differs are fetched
    /// again, once, before the file is refused.
    func run() async throws(FetchError) {
        var restarted = false
        while true {
            let (joined, digest) = try await fetch()
            if digest == file.sha256 {
                transfers.meter.finished(file.path)
                return
            }
            removePart()
            transfers.meter.set(file.path, to: 0)
            if !joined || restarted {
                throw .refused(
                    file.path,
                    "the server's bytes are not the manifest's (SHA-256 \(digest), expected \(file.sha256)): "
                        + "the file was changed after the version was published")
            }
            restarted = true
        }
    }

    /// Brings the part to the manifest's size; returns whether its bytes were joined from several
    /// answers, and their SHA-256.
    private func fetch() async throws(FetchError) -> (joined: Bool, digest: String) {
        let received = Received(size: file.size)
        // A small file is never resumed: it is written from its start (no status call for it).
        received.have = file.size >= Self.resumableSize ? partSize() : 0
        if received.have > file.size { removePart() }
        if received.have > 0 && received.have <= file.size {
            received.validator = FileManager.default.contents(atPath: validatorPath).map {
                String(decoding: $0, as: UTF8.self)
            }
            if received.validator?.isEmpty ?? true {
                removePart()
                received.have = 0
            } else {
                try hashPrefix(received)
                received.joined = true
            }
        } else {
            received.have = 0
        }
        transfers.meter.set(file.path, to: received.have)
        while received.have < file.size {
            try await transfers.retrying(url) { try await request(received) }
        }
        return (received.joined, received.hasher.finishHex())
    }

    /// One request: the next range (or the whole file when it fits in one).
    private func request(_ received: Received) async throws {
        let start = received.have
        let end = file.size - start > Self.rangeSize ? start + Self.rangeSize : file.size
        var headers: [String: String] = [:]
        if start > 0 || end < file.size {
            headers["Range"] = "bytes=\(start)-\(end - 1)"
            if let validator = received.validator, !validator.isEmpty { headers["If-Range"] = validator }
            if start > 0 { received.joined = true }
        }
        let collected = collected
        let sink = collected == nil ? try PartSink(path: part, keep: start) : nil
        defer { sink?.close() }
        let (size, path, meter, validatorPath) = (file.size, file.path, transfers.meter, validatorPath)
        let gate = transfers.gate
        _ = try await transfers.http.get(url, headers: headers, small: size < Self.resumableSize) { event in
            try gate.checkOpen()
            switch event {
            case .response(let response):
                try Self.checkLength(response, expected: size, path: path)
                switch response.statusCode {
                case 206 where Self.rangeStart(response) == start:
                    break
                case 200:
                    if start > 0 {
                        try sink?.truncate()
                        collected?.bytes.removeAll()
                        received.have = 0
                        received.hasher = Received.newHasher(size)
                        received.joined = false
                        meter.set(path, to: 0)
                    }
                case 206, 416:
                    try sink?.truncate()
                    collected?.bytes.removeAll()
                    received.have = 0
                    received.hasher = Received.newHasher(size)
                    meter.set(path, to: 0)
                    throw StatusError(status: 503)
                default:
                    throw StatusError(status: response.statusCode)
                }
                if received.validator == nil || response.statusCode == 200 {
                    received.validator = Self.validator(response)
                    if size >= Self.resumableSize {
                        try Self.keep(received.validator!, at: validatorPath)
                    }
                }
            case .data(let piece):
                guard received.have + UInt64(piece.count) <= size else {
                    throw FetchError.refused(path, "the server sends more than the manifest's \(size) bytes")
                }
                if let collected { collected.bytes.append(contentsOf: piece) } else { try sink?.write(piece) }
                received.hasher.update(piece)
                received.have += UInt64(piece.count)
                meter.received(path, piece.count)
            }
        }
        guard received.have >= end else { throw TransportError.cutOff }
    }

    /// Hashes the part's first `received.have` bytes (kept from an earlier run).
    private func hashPrefix(_ received: Received) throws(FetchError) {
        try Digests.update(&received.hasher, withFile: part, length: received.have)
    }

    private func partSize() -> UInt64 {
        LocalFiles.regularSize(part) ?? 0
    }

    private func removePart() {
        LocalFiles.remove(part)
        // Only files from resumableSize on keep a validator.
        if file.size >= Self.resumableSize { LocalFiles.remove(validatorPath) }
    }

    /// Writes `validator` to the file at `path`.
    static func keep(_ validator: String, at path: String) throws(FetchError) {
        do {
            try Data(validator.utf8).write(to: URL(fileURLWithPath: path))
        } catch {
            throw .local(path, "cannot be written (\(error))")
        }
    }

    /// The first byte a 206 answer's `Content-Range: bytes FIRST-LAST/TOTAL` carries.
    static func rangeStart(_ response: ResponseHead) -> UInt64? {
        guard let value = response.value(forHTTPHeaderField: "Content-Range"), value.hasPrefix("bytes ") else {
            return nil
        }
        return UInt64(value.dropFirst(6).prefix { $0 != "-" })
    }

    /// Refuses an answer whose length says the server's file is not the manifest's size (a 200's
    /// Content-Length, a 206's Content-Range total), before its bytes are taken.
    static func checkLength(_ response: ResponseHead, expected: UInt64, path: String) throws {
        var length: UInt64?
        if response.statusCode == 200, response.expectedContentLength >= 0 {
            length = UInt64(response.expectedContentLength)
        } else if response.statusCode == 206, let range = response.value(forHTTPHeaderField: "Content-Range"),
            let slash = range.lastIndex(of: "/")
        {
            length = UInt64(range[range.index(after: slash)...])
        }
        if let length, length != expected {
            throw FetchError.refused(
                path,
                "the server's file has \(length) bytes, the manifest \(expected): "
                    + "the file was changed after the version was published")
        }
    }

    /// The answer's strong ETag, else its Last-Modified (empty when it has neither), for `If-Range`.
    static func validator(_ response: ResponseHead) -> String {
        if let etag = response.value(forHTTPHeaderField: "ETag"), !etag.hasPrefix("W/") { return etag }
        return response.value(forHTTPHeaderField: "Last-Modified") ?? ""
    }
}

/// A small file's bytes as they arrive, kept in memory until they are verified and written.
/// `@unchecked Sendable`: filled by one request's receiver, one piece after the other, and read
/// by the task that awaited that request only once it has ended.
final class CollectedBytes: @unchecked Sendable {
    var bytes: [UInt8] = []

    init(capacity: UInt64) { bytes.reserveCapacity(Int(capacity)) }
}

extension PartSink {
    /// Writes `bytes` as the whole of the file at `path` (created, or emptied first).
    static func write(_ bytes: [UInt8], to path: String) throws(FetchError) {
        let sink = try PartSink(path: path, keep: 0)
        defer { sink.close() }
        do {
            try bytes.withUnsafeBytes { try sink.write($0) }
        } catch let error as FetchError {
            throw error
        } catch {
            throw .local(path, "cannot be written (\(error))")
        }
    }
}
