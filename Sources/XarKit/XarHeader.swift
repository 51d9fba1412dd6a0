import IAPCore

/// The fixed 28-byte big-endian header at the start of every xar archive.
public struct XarHeader: Equatable, Sendable {
    /// The header's length in bytes, as written and as required.
    public static let byteCount = 28
    /// `xar!` as a big-endian integer.
    public static let expectedMagic: UInt32 = 0x7861_7221

    /// The magic number (`xar!` in a valid archive).
    public var magic: UInt32
    /// The declared header size (28 in a valid archive).
    public var headerSize: UInt16
    /// The format version (1).
    public var version: UInt16
    /// Bytes of zlib-compressed TOC right after the header.
    public var tocCompressedLength: UInt64
    /// Bytes of TOC XML once inflated.
    public var tocUncompressedLength: UInt64
    /// The raw checksum-algorithm code (0 none, 1 SHA-1, 2 MD5, …).
    public var checksumAlgorithmCode: UInt32

    /// A header with the standard magic, size and version.
    public init(tocCompressedLength: UInt64, tocUncompressedLength: UInt64, checksumAlgorithmCode: UInt32) {
        self.magic = Self.expectedMagic
        self.headerSize = UInt16(Self.byteCount)
        self.version = 1
        self.tocCompressedLength = tocCompressedLength
        self.tocUncompressedLength = tocUncompressedLength
        self.checksumAlgorithmCode = checksumAlgorithmCode
    }

    /// Reads a header from the first 28 bytes of `bytes`; nil when there are fewer.
    public static func parse(_ bytes: [UInt8]) -> XarHeader? {
        guard bytes.count >= byteCount else { return nil }
        var header = XarHeader(tocCompressedLength: bytes.uint64BE(at: 8), tocUncompressedLength: bytes.uint64BE(at: 16),
                               checksumAlgorithmCode: bytes.uint32BE(at: 24))
        header.magic = bytes.uint32BE(at: 0)
        header.headerSize = bytes.uint16BE(at: 4)
        header.version = bytes.uint16BE(at: 6)
        return header
    }

    /// The 28 header bytes.
    public func serialized() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.byteCount)
        bytes.appendBE(magic)
        bytes.appendBE(headerSize)
        bytes.appendBE(version)
        bytes.appendBE(tocCompressedLength)
        bytes.appendBE(tocUncompressedLength)
        bytes.appendBE(checksumAlgorithmCode)
        return bytes
    }

    /// The TOC digest algorithm the header names, nil for "none" or an unknown code.
    public var checksumAlgorithm: DigestAlgorithm? { DigestAlgorithm(xarHeaderCode: checksumAlgorithmCode) }
}
