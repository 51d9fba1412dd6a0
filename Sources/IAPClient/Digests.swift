import Foundation

#if os(Linux)
    import IAPCrypto
#else
    import Crypto
#endif

/// A SHA-256 fed in pieces: OpenSSL's (through IAPCrypto, where the rest of iapkg takes its digests)
/// on Linux; swift-crypto's, CryptoKit's API, on Apple platforms.
struct SHA256Stream {
    #if os(Linux)
        private var hasher = DigestHasher(.sha256)

        /// Feeds `data` into the digest.
        mutating func update(_ data: Data) { data.withUnsafeBytes { hasher.update($0) } }

        /// The digest as lowercase hex; the stream must not be fed afterwards.
        func finishHex() -> String { Digests.hex(hasher.finish()) }
    #else
        private var hasher = SHA256()

        /// Feeds `data` into the digest.
        mutating func update(_ data: Data) { hasher.update(data: data) }

        /// The digest as lowercase hex; the stream must not be fed afterwards.
        func finishHex() -> String { Digests.hex(Array(hasher.finalize())) }
    #endif
}

/// SHA-256 of whole buffers and files, as lowercase hex.
enum Digests {
    /// The SHA-256 of `data` as lowercase hex.
    static func sha256Hex(_ data: Data) -> String {
        var stream = SHA256Stream()
        stream.update(data)
        return stream.finishHex()
    }

    /// `digest` as lowercase hex.
    static func hex(_ digest: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(digest.count * 2)
        for byte in digest {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The SHA-256 of the first `length` bytes of the file at `path`, read in 1 MiB pieces, into `stream`.
    static func update(_ stream: inout SHA256Stream, withFile path: String, length: UInt64) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw FetchError.local(path, "cannot be opened for reading")
        }
        defer { try? handle.close() }
        var left = length
        while left > 0 {
            let piece = try handle.read(upToCount: Int(min(left, 1 << 20))) ?? Data()
            if piece.isEmpty { throw FetchError.local(path, "is shorter than expected") }
            stream.update(piece)
            left -= UInt64(piece.count)
        }
    }

    /// The SHA-256 (hex) and size of the whole file at `path`, or nil if it cannot be read.
    static func file(_ path: String) -> (sha256: String, size: UInt64)? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        var stream = SHA256Stream()
        var size: UInt64 = 0
        while true {
            // At the end, read(upToCount:) gives nil on Linux and empty data on Apple platforms.
            guard let piece = try? handle.read(upToCount: 1 << 20), !piece.isEmpty else { break }
            stream.update(piece)
            size += UInt64(piece.count)
        }
        return (stream.finishHex(), size)
    }
}
