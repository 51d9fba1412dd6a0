import Crypto
import Foundation

/// SHA-256, from swift-crypto (CryptoKit on Apple platforms).
enum Digests {
    /// The SHA-256 of `data` as lowercase hex.
    static func sha256Hex(_ data: Data) -> String {
        hex(SHA256.hash(data: data))
    }

    /// `digest` as lowercase hex.
    static func hex(_ digest: SHA256.Digest) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(64)
        for byte in digest {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The SHA-256 of the first `length` bytes of the file at `path`, read in 1 MiB pieces, into `hasher`.
    static func update(_ hasher: inout SHA256, withFile path: String, length: UInt64) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw FetchError.local(path, "cannot be opened for reading")
        }
        defer { try? handle.close() }
        var left = length
        while left > 0 {
            let piece = try handle.read(upToCount: Int(min(left, 1 << 20))) ?? Data()
            if piece.isEmpty { throw FetchError.local(path, "is shorter than expected") }
            hasher.update(data: piece)
            left -= UInt64(piece.count)
        }
    }

    /// The SHA-256 (hex) and size of the whole file at `path`, or nil if it cannot be read.
    static func file(_ path: String) -> (sha256: String, size: UInt64)? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        var hasher = SHA256()
        var size: UInt64 = 0
        while true {
            // At the end, read(upToCount:) gives nil on Linux and empty data on Apple platforms.
            guard let piece = try? handle.read(upToCount: 1 << 20), !piece.isEmpty else { break }
            hasher.update(data: piece)
            size += UInt64(piece.count)
        }
        return (hex(hasher.finalize()), size)
    }
}
