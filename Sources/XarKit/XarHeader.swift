import IAPCrypto

/// The big-endian header at the start of every xar archive: 28 fixed bytes, then (xar 1.6.1, when
/// the TOC digest is "other") the digest algorithm's name, NUL-terminated and zero-padded.
package struct XarHeader: Equatable, Sendable {
    /// The fixed part's length in bytes: the whole header as Apple's xar and libarchive write it.
    package static let byteCount = 28
    /// The longest header read: xar 1.6.1 writes 64 bytes for a named algorithm.
    package static let maxByteCount = 256
    /// `xar!` as a big-endian integer.
    package static let expectedMagic: UInt32 = 0x7861_7221
    /// Header code 3: SHA-256 in Apple's xar (28-byte header); "other, named after the fixed part"
    /// in xar 1.6.1 (longer header).
    package static let otherChecksumCode: UInt32 = 3

    /// The magic number (`xar!` in a valid archive).
    package var magic: UInt32
    /// The declared header size: 28, or more when an algorithm name follows.
    package var headerSize: UInt16
    /// The format version (1).
    package var version: UInt16
    /// Bytes of zlib-compressed TOC right after the header.
    package var tocCompressedLength: UInt64
    /// Bytes of TOC XML once inflated.
    package var tocUncompressedLength: UInt64
    /// The raw checksum-algorithm code (0 none, 1 SHA-1, 2 MD5, 3 SHA-256 or named, 4 SHA-512).
    package var checksumAlgorithmCode: UInt32
    /// The bytes after the fixed 28 (xar 1.6.1's algorithm name and its padding); empty in a 28-byte header.
    package var extraBytes: [UInt8]

    /// A 28-byte header with the standard magic, size and version.
    package init(tocCompressedLength: UInt64, tocUncompressedLength: UInt64, checksumAlgorithmCode: UInt32) {
        self.magic = Self.expectedMagic
        self.headerSize = UInt16(Self.byteCount)
        self.version = 1
        self.tocCompressedLength = tocCompressedLength
        self.tocUncompressedLength = tocUncompressedLength
        self.checksumAlgorithmCode = checksumAlgorithmCode
        self.extraBytes = []
    }

    /// Reads the fixed part from the first 28 bytes of `bytes` and keeps any bytes after them up to
    /// the declared size; nil when there are fewer than 28.
    package static func parse(_ bytes: [UInt8]) -> XarHeader? {
        guard bytes.count >= byteCount else { return nil }
        var header = XarHeader(
            tocCompressedLength: bytes.uint64BE(at: 8), tocUncompressedLength: bytes.uint64BE(at: 16),
            checksumAlgorithmCode: bytes.uint32BE(at: 24))
        header.magic = bytes.uint32BE(at: 0)
        header.headerSize = bytes.uint16BE(at: 4)
        header.version = bytes.uint16BE(at: 6)
        let end = min(bytes.count, Int(header.headerSize))
        if end > byteCount { header.extraBytes = Array(bytes[byteCount..<end]) }
        return header
    }

    /// The header's bytes (the fixed 28, then any extra bytes).
    package func serialized() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.byteCount + extraBytes.count)
        bytes.appendBE(magic)
        bytes.appendBE(headerSize)
        bytes.appendBE(version)
        bytes.appendBE(tocCompressedLength)
        bytes.appendBE(tocUncompressedLength)
        bytes.appendBE(checksumAlgorithmCode)
        bytes += extraBytes
        return bytes
    }

    /// The TOC digest algorithm the header names, nil for "none", an unknown code or name, or a
    /// size that disagrees with the code (``checksumScheme`` says which).
    package var checksumAlgorithm: DigestAlgorithm? {
        if case .algorithm(let algorithm, _) = checksumScheme { return algorithm }
        return nil
    }

    /// What the code, the header size and the name after the fixed part say together.
    package var checksumScheme: XarHeaderChecksumScheme { XarHeaderChecksumScheme(self) }

    /// The header code xar writers use for `algorithm` in a 28-byte header, nil when only a named
    /// (xar 1.6.1, longer) header can carry it.
    package static func code(for algorithm: DigestAlgorithm) -> UInt32? {
        switch algorithm {
        case .sha1: 1
        case .md5: 2
        case .sha256: 3
        case .sha512: 4
        case .sha224, .sha384: nil
        }
    }
}

/// How a header names the TOC digest algorithm. Code 3 has two meanings: Apple's xar writes it in a
/// 28-byte header for SHA-256; xar 1.6.1 writes it in a longer header whose extra bytes carry the
/// algorithm's name. The header size tells them apart.
package enum XarHeaderChecksumScheme: Equatable, Sendable {
    /// Code 0: the TOC is not digested.
    case none
    /// A known algorithm; `named` when the header carried its name (xar 1.6.1).
    case algorithm(DigestAlgorithm, named: Bool)
    /// A code no writer defines.
    case unknownCode(UInt32)
    /// A name after the fixed part that no supported algorithm has.
    case unknownName(String)
    /// The header size does not fit the code (or the name is not NUL-terminated and zero-padded).
    case sizeMismatch(found: Int, expected: String)

    init(_ header: XarHeader) {
        let size = Int(header.headerSize)
        let fixed = XarHeader.byteCount
        let code = header.checksumAlgorithmCode
        guard code == XarHeader.otherChecksumCode, size != fixed else {
            guard size == fixed else {
                self = .sizeMismatch(
                    found: size,
                    expected: "\(fixed) bytes: only checksum code 3 (a named algorithm) makes the header longer")
                return
            }
            switch code {
            case 0: self = .none
            case 1: self = .algorithm(.sha1, named: false)
            case 2: self = .algorithm(.md5, named: false)
            case 3: self = .algorithm(.sha256, named: false)
            case 4: self = .algorithm(.sha512, named: false)
            default: self = .unknownCode(code)
            }
            return
        }
        let extra = header.extraBytes
        guard let nul = extra.firstIndex(of: 0), nul > 0 else {
            self = .sizeMismatch(
                found: size, expected: "a NUL-terminated algorithm name after the first \(fixed) bytes")
            return
        }
        let name = String(decoding: extra[..<nul], as: UTF8.self)
        // xar 1.6.1 pads the name with zeros to a multiple of 4 bytes, at least to 64 bytes in all.
        let minimum = fixed + (nul + 1 + 3) / 4 * 4
        guard size >= minimum, size % 4 == 0, extra[nul...].allSatisfy({ $0 == 0 }) else {
            self = .sizeMismatch(
                found: size,
                expected: "\(max(minimum, 64)) bytes for the algorithm name \"\(name)\", zero-padded to a multiple of 4"
            )
            return
        }
        guard let algorithm = DigestAlgorithm(xarStyle: name), name.lowercased() != "none" else {
            self = .unknownName(name)
            return
        }
        self = .algorithm(algorithm, named: true)
    }
}
