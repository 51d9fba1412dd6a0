import IAPCrypto
import Testing

@testable import IAPKit

/// Validation's digests of a file: the whole file's SHA-256 and, past one object, each piece's,
/// whatever sizes the decoder hands the bytes over in.
@Suite struct ContentHasherTests {
    static func digest(_ bytes: ArraySlice<UInt8>) -> SHA256Value {
        SHA256Value(DigestHasher.digest(.sha256, of: Array(bytes)))
    }

    /// Small pieces and objects, so the test holds kilobytes, not the real 8 and 64 MiB (the test
    /// bundle's memory tests measure the whole process).
    static let piece = 4096
    static let object = 8 * piece

    /// `bytes` fed in pieces of the given sizes, round and round.
    static func hash(_ bytes: [UInt8], feeding sizes: [Int]) -> ContentDigest {
        let hasher = ContentHasher(size: UInt64(bytes.count), pieceBytes: piece, wholeObjectBytes: object)
        var offset = 0
        var turn = 0
        bytes.withUnsafeBytes { all in
            while offset < all.count {
                let count = min(sizes[turn % sizes.count], all.count - offset)
                hasher.update(UnsafeRawBufferPointer(rebasing: all[offset..<(offset + count)]))
                offset += count
                turn += 1
            }
        }
        return hasher.finish()
    }

    @Test func aLargeFileHasOneDigestPerPieceTheLastOneShort() {
        let (piece, count) = (Self.piece, Self.object + 3)
        let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
        for sizes in [[1 << 20], [1_537, 3], [piece + 1], [7, piece - 5]] {
            let digest = Self.hash(bytes, feeding: sizes)
            #expect(digest.sha256 == Self.digest(bytes[...]), "fed \(sizes)")
            let pieces = stride(from: 0, to: count, by: piece).map { Self.digest(bytes[$0..<min($0 + piece, count)]) }
            #expect(pieces.count == Self.object / piece + 1)
            #expect(digest.pieces == pieces, "fed \(sizes)")
        }
    }

    /// A file that goes up in one PUT (up to `wholeObjectBytes`) needs its own digest only.
    @Test func aFileOfOneObjectOrLessHasNoPieceDigests() {
        for count in [0, 1, Self.piece + 1, Self.object] {
            let bytes = [UInt8](repeating: 0x5A, count: count)
            let digest = Self.hash(bytes, feeding: [1000])
            #expect(digest.sha256 == Self.digest(bytes[...]))
            #expect(digest.pieces.isEmpty)
        }
        let oneMore = [UInt8](repeating: 7, count: Self.object + Self.piece)
        #expect(Self.hash(oneMore, feeding: [1000]).pieces.count == Self.object / Self.piece + 1)
        // The real sizes: a multipart upload's parts of 8 MiB, above one PUT's 64 MiB.
        #expect(ContentHasher.pieceBytes == 8 << 20 && ContentHasher.wholeObjectBytes == 64 << 20)
    }
}
