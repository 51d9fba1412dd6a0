internal import IAPCompression
internal import IAPCrypto
internal import XarKit

/// Wraps TOC XML into a well-formed xar, so that the fuzzer's edits of the TOC text reach the
/// TOC reader instead of stopping at the zlib stream or the TOC digest: header (SHA-1), the TOC
/// compressed with zlib, then a heap that starts with the SHA-1 of the compressed TOC (where a TOC
/// that says `<checksum style="sha1"><offset>0</offset><size>20</size>` expects it).
enum XarContainer {
    /// The magic every xar starts with.
    static let magic: [UInt8] = Array("xar!".utf8)

    /// A xar whose TOC is `toc` and whose heap is the TOC digest followed by `heap`.
    static func wrap(toc: [UInt8], heap: [UInt8]) -> [UInt8] {
        guard let compressed = try? Deflater.compress(toc, format: .zlib, level: 1) else { return [] }
        let header = XarHeader(
            tocCompressedLength: UInt64(compressed.count), tocUncompressedLength: UInt64(toc.count),
            checksumAlgorithmCode: 1)
        return header.serialized() + compressed + DigestHasher.digest(.sha1, of: compressed) + heap
    }

    /// The input as a xar: itself when it starts with the magic, otherwise TOC XML up to the first
    /// NUL byte and heap bytes after it, wrapped by `wrap`.
    static func package(from input: [UInt8]) -> [UInt8] {
        if input.starts(with: magic) { return input }
        guard let split = input.firstIndex(of: 0) else { return wrap(toc: input, heap: []) }
        return wrap(toc: Array(input[..<split]), heap: Array(input[(split + 1)...]))
    }
}
