internal import IAPSystem

/// How a component Payload is compressed, told by its first bytes: gzip (what pkgbuild and iapkg
/// write), bzip2, xz, or pbzx (chunks of xz, what `pkgbuild --compression latest` writes).
package enum PayloadCompression: String, Equatable, Sendable, CaseIterable {
    case gzip
    case bzip2
    case xz
    case pbzx

    /// Leading bytes read to tell the formats apart (the xz magic is the longest).
    static let sniffLength = 6
    static let gzipMagic: [UInt8] = [0x1f, 0x8b]
    static let bzip2Magic: [UInt8] = Array("BZh".utf8)
    static let xzMagic: [UInt8] = [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]
    static let pbzxMagic: [UInt8] = PbzxDecoder.magic

    /// The compression `leading` starts with, or nil if it is none of the four.
    package static func detect(_ leading: [UInt8]) -> PayloadCompression? {
        if leading.starts(with: gzipMagic) { return .gzip }
        if leading.starts(with: bzip2Magic) { return .bzip2 }
        if leading.starts(with: xzMagic) { return .xz }
        if leading.starts(with: pbzxMagic) { return .pbzx }
        return nil
    }

    /// An error message naming what `leading` looks like and what to do.
    static func describeUnrecognized(_ leading: [UInt8]) -> String {
        guard !leading.isEmpty else {
            return
                "the payload is empty; it must be a cpio archive compressed with gzip, bzip2, xz or pbzx — rebuild the package"
        }
        let guess = guessFormat(leading).map { " (\($0))" } ?? ""
        let bytes = leading.map { Hex.encode([$0]) }.joined(separator: " ")
        return
            "the payload starts with bytes \(bytes)\(guess), not gzip (1f 8b), bzip2 (\"BZh\"), xz (fd 37 7a 58 5a 00) or pbzx (\"pbzx\") data; "
            + "recompress its cpio archive with gzip (what pkgbuild and iapkg build write) and rebuild the package"
    }

    /// A guess at a format other than the four, from its magic bytes.
    private static func guessFormat(_ leading: [UInt8]) -> String? {
        let known: [([UInt8], String)] = [
            (Array("070701".utf8), "an uncompressed cpio newc archive"),
            (Array("070702".utf8), "an uncompressed cpio newc archive with CRCs"),
            (Array("070707".utf8), "an uncompressed cpio odc archive"),
            (Array("0707".utf8), "an uncompressed cpio archive?"),
            ([0xc7, 0x71], "an uncompressed binary cpio archive"),
            ([0x71, 0xc7], "an uncompressed binary cpio archive"),
            ([0x28, 0xb5, 0x2f, 0xfd], "zstd?"),
            ([0x5d, 0x00, 0x00], "lzma alone?"),
            ([0x04, 0x22, 0x4d, 0x18], "lz4?"),
            (Array("PK".utf8), "zip?"),
            ([0x78], "zlib without a gzip header?"),
        ]
        return known.first { leading.starts(with: $0.0) }?.1
    }
}
