#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if os(Linux)
    import IAPCrypto
#else
    import Crypto
#endif

/// A SHA-256 fed in pieces: OpenSSL's (through IAPCrypto, where the rest of iapkg takes its digests)
/// on Linux; swift-crypto's, CryptoKit's API, on Apple platforms.
struct SHA256Stream {
    #if os(Linux)
        private var hasher: DigestHasher?
        private var background: BackgroundSHA256?

        /// A stream hashing as it is fed; with `background`, on a thread of its own
        /// (``BackgroundSHA256``: for a large download, hashed while the next pieces arrive).
        init(background: Bool = false) {
            if background { self.background = BackgroundSHA256() } else { hasher = DigestHasher(.sha256) }
        }

        /// Feeds `bytes` into the digest.
        mutating func update(_ bytes: UnsafeRawBufferPointer) {
            if let background { background.update(bytes) } else { hasher?.update(bytes) }
        }

        /// The digest as lowercase hex; the stream must not be fed afterwards.
        func finishHex() -> String { Digests.hex(background?.finish() ?? hasher?.finish() ?? []) }
    #else
        /// A stream hashing as it is fed (`background` is for Linux's OpenSSL-backed stream).
        init(background: Bool = false) {}

        private var hasher = SHA256()

        /// Feeds `bytes` into the digest.
        mutating func update(_ bytes: UnsafeRawBufferPointer) { hasher.update(bufferPointer: bytes) }

        /// The digest as lowercase hex; the stream must not be fed afterwards.
        func finishHex() -> String { Digests.hex(Array(hasher.finalize())) }
    #endif

    /// Feeds `data` into the digest.
    mutating func update(_ data: Data) { data.withUnsafeBytes { update($0) } }
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

    /// The first `length` bytes of the file at `path`, read in 1 MiB pieces, into `stream`.
    static func update(_ stream: inout SHA256Stream, withFile path: String, length: UInt64) throws(FetchError) {
        var hashing = stream
        _ = try LocalFiles.read(path, length: length) { hashing.update($0) }
        stream = hashing
    }

    /// The SHA-256 (hex) and size of the whole file at `path`, or nil if it cannot be read.
    static func file(_ path: String) -> (sha256: String, size: UInt64)? {
        var stream = SHA256Stream()
        guard let size = try? LocalFiles.read(path, { stream.update($0) }) else { return nil }
        return (stream.finishHex(), size)
    }
}
