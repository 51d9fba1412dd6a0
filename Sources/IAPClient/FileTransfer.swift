import Crypto
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One file of a version fetched into a part file: resumed from the bytes already there with a
/// range request (`If-Range` with the validator the first answer gave, so a file changed on the
/// server comes whole), checked against the manifest's size and SHA-256. Not flushed here: a
/// resumed run verifies every staged file again, and the version is flushed once before install.
struct FileTransfer {
    let transfers: Transfers
    let file: VersionManifest.File
    let url: URL
    /// Where the bytes go; beside it, `part + ".validator"` keeps the ETag or Last-Modified.
    let part: String

    private var validatorPath: String { part + ".validator" }
    /// Files from this size on keep a validator and are resumed; smaller ones are fetched again whole.
    static let resumableSize: UInt64 = 256 * 1024

    /// Fetches what the part file lacks and checks the whole; on return the part holds the
    /// manifest's bytes. A resumed file whose digest differs is fetched again whole, once.
    func run() async throws(FetchError) {
        var restarted = false
        while true {
            let (resumedFrom, digest) = try await fetch()
            if digest == file.sha256 { return }
            removePart()
            transfers.meter.set(file.path, to: 0)
            if resumedFrom == 0 || restarted {
                throw .refused(
                    file.path,
                    "the server's bytes are not the manifest's (SHA-256 \(digest), expected \(file.sha256)): "
                        + "the file was changed after the version was published")
            }
            restarted = true
        }
    }

    /// Brings the part to the manifest's size; returns the offset the last answer started from
    /// and the SHA-256 of the whole part (the bytes hashed as they arrive).
    private func fetch() async throws(FetchError) -> (start: UInt64, digest: String) {
        try await transfers.retrying(url) { () async throws -> (start: UInt64, digest: String) in
            var have = partSize()
            if have > file.size {
                removePart()
                have = 0
            }
            transfers.meter.set(file.path, to: have)
            if have == file.size { return (have, try digestOfPart()) }
            var headers: [String: String] = [:]
            let validator = have > 0 ? (try? String(contentsOfFile: validatorPath, encoding: .utf8)) : nil
            if let validator, !validator.isEmpty {
                headers["Range"] = "bytes=\(have)-"
                headers["If-Range"] = validator
            } else {
                have = 0
            }
            let sink = try PartSink(path: part, keep: have)
            defer { sink.close() }
            var start = have
            var written = have
            let expected = file.size
            let path = file.path
            let meter = transfers.meter
            let partPath = part
            var hasher = SHA256()
            _ = try await transfers.http.get(url, headers: headers) { event in
                switch event {
                case .response(let response):
                    try Self.checkLength(response, expected: expected, path: path)
                    switch response.statusCode {
                    case 206 where Self.rangeStart(response) == start:
                        try Digests.update(&hasher, withFile: partPath, length: start)
                    case 200:
                        start = 0
                        written = 0
                        try sink.truncate()
                        meter.set(path, to: 0)
                    case 206, 416:
                        try sink.truncate()
                        throw StatusError(status: 503)
                    default:
                        throw StatusError(status: response.statusCode)
                    }
                    if expected >= Self.resumableSize { try Self.saveValidator(response, to: validatorPath) }
                case .data(let piece):
                    guard written + UInt64(piece.count) <= expected else {
                        throw FetchError.refused(path, "the server sends more than the manifest's \(expected) bytes")
                    }
                    try sink.write(piece)
                    hasher.update(data: piece)
                    written += UInt64(piece.count)
                    meter.received(path, piece.count)
                }
            }
            guard written == expected else { throw URLError(.networkConnectionLost) }
            return (start, Digests.hex(hasher.finalize()))
        }
    }

    /// The SHA-256 of the whole part file.
    private func digestOfPart() throws(FetchError) -> String {
        var hasher = SHA256()
        do {
            try Digests.update(&hasher, withFile: part, length: file.size)
        } catch let error as FetchError {
            throw error
        } catch {
            throw .local(part, "cannot be read (\(error))")
        }
        return Digests.hex(hasher.finalize())
    }

    private func partSize() -> UInt64 {
        ((try? FileManager.default.attributesOfItem(atPath: part))?[.size] as? NSNumber)?.uint64Value ?? 0
    }

    private func removePart() {
        try? FileManager.default.removeItem(atPath: part)
        try? FileManager.default.removeItem(atPath: validatorPath)
    }

    /// The first byte a 206 answer's `Content-Range: bytes FIRST-LAST/TOTAL` carries.
    static func rangeStart(_ response: HTTPURLResponse) -> UInt64? {
        guard let value = response.value(forHTTPHeaderField: "Content-Range"), value.hasPrefix("bytes ") else {
            return nil
        }
        return UInt64(value.dropFirst(6).prefix { $0 != "-" })
    }

    /// Refuses an answer whose length says the server's file is not the manifest's size (a 200's
    /// Content-Length, a 206's Content-Range total), before its bytes are taken.
    static func checkLength(_ response: HTTPURLResponse, expected: UInt64, path: String) throws {
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

    /// Keeps the answer's strong ETag (else its Last-Modified) for the `If-Range` of a resume.
    static func saveValidator(_ response: HTTPURLResponse, to path: String) throws {
        var validator = ""
        if let etag = response.value(forHTTPHeaderField: "ETag"), !etag.hasPrefix("W/") {
            validator = etag
        } else if let modified = response.value(forHTTPHeaderField: "Last-Modified") {
            validator = modified
        }
        try Data(validator.utf8).write(to: URL(fileURLWithPath: path))
    }
}

/// The part file being written: opened once per request, appended to or truncated.
final class PartSink {
    private let handle: FileHandle
    private let path: String

    /// Opens (creating) `path`, keeping its first `keep` bytes and appending after them.
    init(path: String, keep: UInt64) throws {
        self.path = path
        if !FileManager.default.fileExists(atPath: path) {
            // Not createFile(atPath:): it writes a temporary file, flushes and renames it.
            do { try Data().write(to: URL(fileURLWithPath: path)) } catch {
                throw FetchError.local(path, "cannot be created (\(error.localizedDescription))")
            }
        }
        guard let handle = FileHandle(forWritingAtPath: path) else { throw FetchError.local(path, "cannot be opened") }
        self.handle = handle
        try handle.truncate(atOffset: keep)
        try handle.seek(toOffset: keep)
    }

    /// Empties the file to write it from its start.
    func truncate() throws {
        try handle.truncate(atOffset: 0)
        try handle.seek(toOffset: 0)
    }

    /// Appends `data`.
    func write(_ data: Data) throws {
        do {
            try handle.write(contentsOf: data)
        } catch {
            throw FetchError.local(path, "cannot be written (\(error.localizedDescription))")
        }
    }

    /// Closes the file.
    func close() {
        try? handle.close()
    }
}
