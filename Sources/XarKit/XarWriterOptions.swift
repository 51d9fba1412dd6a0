import IAPCrypto

/// How a `XarWriter` writes: digest algorithm, creation time, compression.
package struct XarWriterOptions: Sendable {
    /// Digest for the TOC checksum and every file's checksums. Only SHA-1 (the default) is read by
    /// libarchive: it refuses header code 3 (SHA-256 in Apple's xar, "other" in xar 1.6.1).
    /// The writer writes 28-byte headers: SHA-224 and SHA-384, which need a named header, become SHA-1.
    package var checksum: DigestAlgorithm
    /// The `<creation-time>` text, ISO-8601 `YYYY-MM-DDTHH:MM:SSZ`.
    package var creationTime: String
    /// zlib level (0–9) for the TOC and zlib-encoded files.
    package var compressionLevel: Int32
    /// Largest uncompressed TOC written: readers (iapkg's own, `xar-toc-too-large`) refuse more, so
    /// the writer refuses to finish such an archive instead of making one nobody may read.
    package var maxTOCBytes: UInt64 = XarLimits.tocBytes

    /// Options with SHA-1 and zlib level 6 unless told otherwise.
    package init(checksum: DigestAlgorithm = .sha1, creationTime: String, compressionLevel: Int32 = 6) {
        self.checksum = XarHeader.code(for: checksum) == nil ? .sha1 : checksum
        self.creationTime = creationTime
        self.compressionLevel = compressionLevel
    }

    /// The 28-byte header's code for ``checksum``.
    var headerChecksumCode: UInt32 { XarHeader.code(for: checksum) ?? 1 }
}

/// How the writer stores a file's bytes in the heap.
package enum XarWriterEncoding: Sendable {
    /// zlib-compressed (`application/x-gzip`).
    case zlib
    /// As they are (`application/octet-stream`).
    case stored
}

/// Checks `YYYY-MM-DDTHH:MM:SSZ`.
func isISO8601Timestamp(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    guard bytes.count == 20 else { return false }
    for (index, byte) in bytes.enumerated() {
        switch index {
        case 4, 7: guard byte == UInt8(ascii: "-") else { return false }
        case 10: guard byte == UInt8(ascii: "T") else { return false }
        case 13, 16: guard byte == UInt8(ascii: ":") else { return false }
        case 19: guard byte == UInt8(ascii: "Z") else { return false }
        default: guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return false }
        }
    }
    return true
}
