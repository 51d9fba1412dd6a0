import IAPCrypto
import IAPSystem
import Testing

/// Every digest xar names gives the published value of "abc" (FIPS 180-4 and RFC 1321 examples),
/// whole or fed in pieces.
@Suite struct DigestVectorTests {
    static let abc: [DigestAlgorithm: String] = [
        .sha1: "a9993e364706816aba3e25717850c26c9cd0d89d",
        .sha224: "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7",
        .sha256: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
        .sha384: "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed"
            + "8086072ba1e7cc2358baeca134c825a7",
        .sha512: "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
            + "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
        .md5: "900150983cd24fb0d6963f7d28e17f72",
    ]

    @Test(arguments: DigestAlgorithm.allCases)
    func abcGivesThePublishedDigest(algorithm: DigestAlgorithm) throws {
        let expected = try #require(Self.abc[algorithm])
        #expect(Hex.encode(DigestHasher.digest(algorithm, of: Array("abc".utf8))) == expected)
        let pieces = DigestHasher(algorithm)
        for byte in "abc".utf8 { pieces.update([byte]) }
        pieces.update([])
        #expect(Hex.encode(pieces.finish()) == expected)
        #expect(expected.count == algorithm.byteCount * 2)
    }
}
