internal import IAPCompression
internal import IAPCrypto
internal import IAPSystem

/// How the `xar-data` target turns its input into one xar entry, so that the fuzzer reaches the
/// decoders and the checksum checks rather than the TOC gate.
///
/// Byte 0 chooses: bits 0–2 the encoding and who encodes (0 stored; 1 zlib, the target compresses
/// the rest of the input; 2–5 zlib, bzip2, lzma, xz, the rest of the input *is* the encoded data;
/// 6 zlib declared as `application/zlib`; 7 no `<encoding>` element), bits 3–4 the checksum
/// algorithm (sha1, md5, sha256, none), bit 5 a wrong extracted checksum, bit 6 a declared size
/// off by the signed value of byte 1, bit 7 reads of 1 byte instead of 64 KiB. When the target does
/// not encode, bytes 1–3 are the declared size (little-endian), the encoded data follows, and the
/// extracted checksum is absent.
struct EntryDataInput {
    /// The TOC XML of a one-entry xar.
    var toc: [UInt8]
    /// The entry's stored (encoded) bytes: the heap after the TOC digest.
    var stored: [UInt8]
    /// How many bytes each `read` asks for.
    var readSize: Int

    init(_ input: [UInt8]) {
        let control = input.first ?? 0
        let rest = Array(input.dropFirst())
        let mode = control & 7
        let algorithm: DigestAlgorithm? = [.sha1, .md5, .sha256, nil][Int(control >> 3) & 3]
        readSize = control & 0x80 != 0 ? 1 : 64 << 10
        let style: String? =
            switch mode {
            case 0: "application/octet-stream"
            case 1, 2: "application/x-gzip"
            case 3: "application/x-bzip2"
            case 4: "application/x-lzma"
            case 5: "application/x-xz"
            case 6: "application/zlib"
            default: nil
            }
        var plain: [UInt8]?
        switch mode {
        case 0, 7:
            stored = rest
            plain = rest
        case 1:
            stored = (try? Deflater.compress(rest, format: .zlib, level: 1)) ?? []
            plain = rest
        default:
            stored = Array(rest.dropFirst(3))
        }
        var size: Int64
        if let plain {
            size = Int64(plain.count)
        } else {
            size = Int64(rest.prefix(3).enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) })
        }
        if control & 0x40 != 0 { size += Int64(Int8(bitPattern: rest.first ?? 0)) }
        var data = "<length>\(stored.count)</length><offset>20</offset><size>\(size)</size>"
        if let style { data += "<encoding style=\"\(style)\"/>" }
        if let algorithm {
            data += "<archived-checksum style=\"\(algorithm.rawValue)\">"
            data += Hex.encode(DigestHasher.digest(algorithm, of: stored)) + "</archived-checksum>"
            if var plain {
                if control & 0x20 != 0 { plain.append(0) }
                data += "<extracted-checksum style=\"\(algorithm.rawValue)\">"
                data += Hex.encode(DigestHasher.digest(algorithm, of: plain)) + "</extracted-checksum>"
            }
        }
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <xar><toc><creation-time>2024-01-01T00:00:00Z</creation-time>\
            <checksum style="sha1"><offset>0</offset><size>20</size></checksum>\
            <file id="1"><data>\(data)</data><mode>0644</mode><type>file</type><name>entry</name></file>\
            </toc></xar>
            """
        toc = Array(text.utf8)
    }
}
