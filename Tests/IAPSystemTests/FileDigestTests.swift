import Testing

@testable import IAPCrypto
@testable import IAPSystem

#if canImport(Glibc)
    import Glibc
#endif

/// Digests of files read in pieces equal digests of their bytes held whole.
@Suite struct FileDigestTests {
    @Test func digestOfTheRestOfAFileEqualsTheDigestOfItsBytes() throws {
        let bytes = (0..<300_001).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 11) }
        let path = "/tmp/filedigest-\(UInt64.random(in: 0...UInt64.max))"
        let out = try FileDescriptor.createExclusive(path)
        try out.write(bytes)
        defer { unlink(path) }
        for algorithm in [DigestAlgorithm.sha256, .sha1] {
            let whole = try FileDescriptor.openForReading(path)
            #expect(try DigestHasher.digest(algorithm, ofRestOf: whole) == DigestHasher.digest(algorithm, of: bytes))
            let tail = try FileDescriptor.openForReading(path)
            try tail.seek(to: 70_000)
            #expect(
                try DigestHasher.digest(algorithm, ofRestOf: tail)
                    == DigestHasher.digest(algorithm, of: Array(bytes[70_000...])))
        }
        let empty = try FileDescriptor.openForReading("/dev/null")
        #expect(try DigestHasher.digest(.sha256, ofRestOf: empty) == DigestHasher.digest(.sha256, of: []))
    }
}
