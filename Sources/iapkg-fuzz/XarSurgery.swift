import IAPCore
import XarKit

/// A xar file taken apart: the 28-byte header as found, the inflated TOC XML, and the heap.
struct XarParts {
    /// The first 28 bytes of the file.
    var header: [UInt8]
    /// The TOC, inflated.
    var tocXML: [UInt8]
    /// Every byte after the compressed TOC.
    var heap: [UInt8]
}

/// Takes xar files apart and puts them back together with a recompressed TOC, fixed header lengths and,
/// optionally, a recomputed TOC digest: so mutations of the TOC text reach the code behind the zlib and
/// checksum gates.
enum XarSurgery {
    /// The largest TOC or entry this fuzzer inflates.
    static let maxInflatedBytes = 4 << 20

    /// Splits `bytes`; nil when it has no readable header or its TOC does not inflate.
    static func split(_ bytes: [UInt8]) -> XarParts? {
        guard bytes.count >= 28, bytes.uint32BE(at: 0) == 0x7861_7221 else { return nil }
        let compressedLength = bytes.uint64BE(at: 8)
        guard compressedLength <= UInt64(bytes.count - 28) else { return nil }
        let tocEnd = 28 + Int(compressedLength)
        guard let xml = inflate(Array(bytes[28..<tocEnd]), format: .zlib) else { return nil }
        return XarParts(header: Array(bytes[0..<28]), tocXML: xml, heap: Array(bytes[tocEnd...]))
    }

    /// Inflates `bytes` as one `format` stream, refusing more than `maxInflatedBytes`.
    static func inflate(_ bytes: [UInt8], format: ZlibFormat) -> [UInt8]? {
        let inflater = Inflater(format: format)
        var out: [UInt8] = []
        struct TooLarge: Error {}
        do {
            _ = try bytes.withUnsafeBytes { input in
                try inflater.decompress(input) { chunk in
                    guard out.count + chunk.count <= maxInflatedBytes else { throw TooLarge() }
                    out.append(contentsOf: chunk)
                }
            }
        } catch { return nil }
        return inflater.finished ? out : nil
    }

    /// Deflates `bytes` as one `format` stream at `level`.
    static func deflate(_ bytes: [UInt8], format: ZlibFormat, level: Int32) -> [UInt8] {
        (try? Deflater.compress(bytes, format: format, level: level)) ?? []
    }

    /// Puts `parts` back together: TOC deflated at `level`, header lengths set to match, and with
    /// `fixChecksum` the TOC digest rewritten where the TOC's `<checksum>` says it lives.
    static func assemble(_ parts: XarParts, level: Int32, fixChecksum: Bool) -> [UInt8] {
        let compressed = deflate(parts.tocXML, format: .zlib, level: level)
        var header = parts.header
        overwriteBE(&header, at: 8, UInt64(compressed.count))
        overwriteBE(&header, at: 16, UInt64(parts.tocXML.count))
        var heap = parts.heap
        if fixChecksum {
            writeTOCDigest(of: compressed, toc: TOCText(bytes: parts.tocXML), header: header, into: &heap)
        }
        return header + compressed + heap
    }

    /// Writes the digest of `compressed` into `heap` at the TOC checksum's declared offset, when it fits.
    static func writeTOCDigest(of compressed: [UInt8], toc: TOCText, header: [UInt8], into heap: inout [UInt8]) {
        guard let leaf = toc.tocChecksum() else { return }
        let style = toc.attribute("style", in: leaf.attributes) ?? ""
        let algorithm = DigestAlgorithm(xarStyle: style) ?? XarHeader.parse(header)?.checksumAlgorithm
        guard let algorithm,
            let offsetText = toc.text(of: "offset", in: leaf.content),
            let offset = UInt64(offsetText), offset < UInt64(heap.count)
        else { return }
        let digest = DigestHasher.digest(algorithm, of: compressed)
        let start = Int(offset)
        guard start + digest.count <= heap.count else { return }
        heap.replaceSubrange(start..<(start + digest.count), with: digest)
    }

    /// Overwrites 8 bytes at `offset` with `value`, big-endian.
    static func overwriteBE(_ bytes: inout [UInt8], at offset: Int, _ value: UInt64) {
        for i in 0..<8 { bytes[offset + i] = UInt8(truncatingIfNeeded: value >> (56 - 8 * i)) }
    }
}
