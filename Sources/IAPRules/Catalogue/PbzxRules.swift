/// A component Payload in pbzx, the chunked xz framing `pkgbuild --compression latest` writes
/// (PackageFormat.md §8 "pbzx Payloads"): one rule per way its framing can break.
public struct PbzxRules: RuleGroup {
    public let shapePbzxHeader = Rule(
        "shape-pbzx-header", .error, .shape,
        "A pbzx Payload's header is cut short or declares a chunk size of 0.",
        "A pbzx Payload starts with \"pbzx\" and a big-endian 64-bit chunk size (16 MiB in pkgbuild's output); without it no chunk can be read. Rebuild the package (pkgbuild, or `iapkg build --payload-compression pbzx`)."
    )
    public let shapePbzxChunkSize = Rule(
        "shape-pbzx-chunk-size", .error, .shape,
        "A pbzx chunk states 0 bytes or more than the chunk size.",
        "Every pbzx chunk but the last decodes to exactly the chunk size the header declares, and none to more; a chunk that states more is refused before it is decoded, as a bomb would be. Rebuild the package."
    )
    public let shapePbzxTruncated = Rule(
        "shape-pbzx-truncated", .error, .shape,
        "A pbzx Payload ends inside a chunk's header or stored bytes.",
        "Each chunk has a 16-byte header (uncompressed size, stored length) and then as many bytes as it stores; the Payload ended before them, so the package was cut short in transfer or by its writer. Fetch or rebuild the package again."
    )
    public let shapePbzxChunkDecode = Rule(
        "shape-pbzx-chunk-decode", .error, .shape,
        "A pbzx chunk's xz data is damaged or decodes to another size than it states.",
        "An xz chunk must be one xz stream that spans exactly its stored length and decodes to exactly its stated size; anything else means the bytes were damaged or forged. Rebuild the package."
    )
    public let shapePbzxChunkEncoding = Rule(
        "shape-pbzx-chunk-encoding", .error, .shape,
        "A pbzx chunk is neither xz data nor stored at its size.",
        "A chunk is either an xz stream (starting with fd 37 7a 58 5a 00) or, when its stored length equals its size, the bytes as they are; this one is neither, so nothing can tell how to decode it. Rebuild the package."
    )
    public let shapePbzxTrailing = Rule(
        "shape-pbzx-trailing", .error, .shape,
        "Bytes follow a pbzx Payload's last chunk.",
        "A chunk shorter than the chunk size is the last one; bytes after it are no part of the archive and a reader that follows the sizes differs from one that does not. Rebuild the package.",
        tableNote: "a pbzx Payload's framing"
    )
}
