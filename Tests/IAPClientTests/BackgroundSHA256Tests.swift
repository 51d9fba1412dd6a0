#if os(Linux)
    import IAPCrypto
    import Testing

    @testable import IAPClient

    /// A digest taken on its own thread is the digest of the bytes fed, in order, whatever the
    /// sizes of the pieces; one abandoned before its end lets its thread go.
    @Suite struct BackgroundSHA256Tests {
        @Test func theDigestIsTheBytesDigestWhateverThePieces() {
            let bytes = (0..<(9 * BackgroundSHA256.chunkBytes + 12_345)).map {
                UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 11)
            }
            let expected = DigestHasher.digest(.sha256, of: bytes)
            for piece in [1, 65_536, BackgroundSHA256.chunkBytes, 3 * BackgroundSHA256.chunkBytes + 7] {
                let hasher = BackgroundSHA256()
                bytes.withUnsafeBytes { all in
                    var offset = 0
                    while offset < all.count {
                        let end = min(all.count, offset + piece)
                        hasher.update(UnsafeRawBufferPointer(rebasing: all[offset..<end]))
                        offset = end
                    }
                }
                #expect(hasher.finish() == expected, "pieces of \(piece)")
            }
            #expect(BackgroundSHA256().finish() == DigestHasher.digest(.sha256, of: []))
        }

        @Test func anAbandonedDigestEndsItsThread() {
            for _ in 0..<50 {
                let hasher = BackgroundSHA256()
                let bytes = [UInt8](repeating: 3, count: 2 * BackgroundSHA256.chunkBytes)
                bytes.withUnsafeBytes { hasher.update($0) }
            }
            var stream = SHA256Stream(background: true)
            [UInt8]("abc".utf8).withUnsafeBytes { stream.update($0) }
            #expect(stream.finishHex() == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        }
    }
#endif
