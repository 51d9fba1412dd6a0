import IAPCrypto

/// The SHA-256 of a file's bytes as validation decodes them and, for a file larger than
/// `wholeObjectBytes`, of each `pieceBytes` piece too: the parts of the multipart upload a publish
/// to an object store sends it in, each then carrying the SHA-256 validation took of it for the
/// store to check, so nothing is hashed a second time. A smaller file goes up in one PUT, which
/// carries the whole file's SHA-256.
final class ContentHasher {
    /// The size of a piece, and of an object store's upload part.
    static let pieceBytes = 8 << 20
    /// Files up to this size go into an object store in one PUT, larger ones in pieces (64 MiB,
    /// where aws s3 goes multipart at 8 MiB and rclone at 200 MiB: one stream per file costs the
    /// store less than parts, and a failure resends at most this much).
    static let wholeObjectBytes = 64 << 20

    private let whole = DigestHasher(.sha256)
    /// The piece being hashed (nil: the file is one piece).
    private var piece: DigestHasher?
    private let pieceBytes: Int
    private var pieceFill = 0
    private var pieces: [SHA256Value] = []

    /// A hasher for a file declared `size` bytes long (the sizes other than the defaults: for tests).
    init(
        size: UInt64, pieceBytes: Int = ContentHasher.pieceBytes, wholeObjectBytes: Int = ContentHasher.wholeObjectBytes
    ) {
        self.pieceBytes = pieceBytes
        piece = size > UInt64(wholeObjectBytes) ? DigestHasher(.sha256) : nil
    }

    /// Hashes the next `bytes` of the file.
    func update(_ bytes: UnsafeRawBufferPointer) {
        whole.update(bytes)
        guard var current = piece else { return }
        var rest = bytes[...]
        while !rest.isEmpty {
            let taken = min(rest.count, pieceBytes - pieceFill)
            current.update(UnsafeRawBufferPointer(rebasing: rest.prefix(taken)))
            pieceFill += taken
            rest = rest.dropFirst(taken)
            if pieceFill == pieceBytes {
                pieces.append(SHA256Value(current.finish()))
                current = DigestHasher(.sha256)
                pieceFill = 0
            }
        }
        piece = current
    }

    /// The file's digest and its pieces' (the last piece may be short).
    func finish() -> ContentDigest {
        if let piece, pieceFill > 0 { pieces.append(SHA256Value(piece.finish())) }
        return ContentDigest(sha256: SHA256Value(whole.finish()), pieces: pieces)
    }
}

/// The SHA-256 of the bytes an entry carried as validation decoded them, or nil when it carried
/// none (folders, links, a file whose data was not decoded); for a file larger than
/// `ContentHasher.pieceBytes`, the SHA-256 of each such piece of it, in order.
struct ContentDigest {
    var sha256: SHA256Value?
    var pieces: [SHA256Value] = []

    /// The digest `hasher` finishes, if there is one.
    init(_ hasher: ContentHasher?) {
        if let hasher { self = hasher.finish() }
    }

    init(sha256: SHA256Value?, pieces: [SHA256Value] = []) {
        self.sha256 = sha256
        self.pieces = pieces
    }
}
