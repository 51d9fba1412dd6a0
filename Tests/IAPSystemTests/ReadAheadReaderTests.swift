import Testing

@testable import IAPCrypto
@testable import IAPSystem

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct ReadAheadReaderTests {
    /// How many descriptors this process has open (entries of /proc/self/fd).
    func openDescriptors() -> Int {
        guard let dir = opendir("/proc/self/fd") else { return -1 }
        defer { closedir(dir) }
        var count = 0
        while readdir(dir) != nil { count += 1 }
        return count
    }

    func file(_ bytes: [UInt8]) throws -> FileDescriptor {
        let path = "/tmp/readahead-\(UInt64.random(in: 0...UInt64.max))"
        let out = try FileDescriptor.createExclusive(path)
        try out.write(bytes)
        defer { unlink(path) }
        return try FileDescriptor.openForReading(path)
    }

    @Test func deliversTheRangeInOrderAndDigestsIt() throws {
        let bytes = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
        let hasher = DigestHasher(.sha1)
        let reader = try ReadAheadReader(
            file: try file(bytes), start: 1000, length: 2_500_000, chunkSize: 65_536, depth: 3, hasher: hasher)
        var got: [UInt8] = []
        while let chunk = try reader.next() { got.append(contentsOf: chunk) }
        #expect(got == Array(bytes[1000..<2_501_000]))
        #expect(hasher.finish() == DigestHasher.digest(.sha1, of: got))
    }

    /// As XarDataStream uses it: the last chunk taken, no call past it, then the digest awaited.
    @Test func digestIsCompleteOnceWaitedForAfterTheLastChunk() throws {
        let bytes = (0..<5_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 11) }
        for depth in [2, 4] {
            let hasher = DigestHasher(.sha256)
            let reader = try ReadAheadReader(
                file: try file(bytes), start: 0, length: UInt64(bytes.count), chunkSize: 1 << 16, depth: depth,
                hasher: hasher)
            var got = 0
            while got < bytes.count, let chunk = try reader.next() { got += chunk.count }
            #expect(got == bytes.count)
            reader.waitForDigest()
            #expect(hasher.finish() == DigestHasher.digest(.sha256, of: bytes))
        }
    }

    /// A short file ends the hasher too: dropping the reader returns (no thread left waiting).
    @Test func aShortFileWithAHasherEndsCleanly() throws {
        for _ in 0..<10 {
            let reader = try ReadAheadReader(
                file: try file([UInt8](repeating: 3, count: 150_000)), start: 0, length: 600_000,
                chunkSize: 65_536, depth: 2, hasher: DigestHasher(.sha1))
            var total = 0
            while let chunk = try reader.next() { total += chunk.count }
            #expect(total == 150_000)
            reader.waitForDigest()  // not all delivered: returns at once
        }
    }

    @Test func endsEarlyWhenTheFileIsShort() throws {
        let reader = try ReadAheadReader(
            file: try file([UInt8](repeating: 1, count: 100_000)), start: 0, length: 500_000,
            chunkSize: 65_536, depth: 2, hasher: nil)
        var total = 0
        while let chunk = try reader.next() { total += chunk.count }
        #expect(total == 100_000)
        #expect(reader.bytesDelivered == 100_000)
    }

    /// Dropping a reader half-way stops its thread: the first chunk is right, deinit returns, and the
    /// file's descriptors (one per reader here) are not leaked by 20 abandoned readers.
    @Test func canBeAbandonedHalfWay() throws {
        let before = openDescriptors()
        for _ in 0..<20 {
            let reader = try ReadAheadReader(
                file: try file([UInt8](repeating: 2, count: 1_000_000)), start: 0, length: 1_000_000,
                chunkSize: 4096, depth: 2, hasher: DigestHasher(.sha1))
            let first = try #require(try reader.next())
            #expect(first.count == 4096 && first.allSatisfy { $0 == 2 })
        }
        let after = openDescriptors()
        #expect(after <= before + 2, "descriptors before \(before), after \(after)")
    }
}
