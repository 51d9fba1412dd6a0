import Testing

@testable import IAPCrypto
@testable import IAPSystem

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct ReadAheadReaderTests {
    /// How many of this process's descriptors are open on files whose path starts with `prefix`
    /// (the targets of /proc/self/fd's links; an unlinked file's ends in " (deleted)").
    func descriptors(openOn prefix: String) -> Int {
        guard let dir = opendir("/proc/self/fd") else { return -1 }
        defer { closedir(dir) }
        var count = 0
        var target = [CChar](repeating: 0, count: 4096)
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            let length = readlink("/proc/self/fd/\(name)", &target, target.count - 1)
            guard length > 0 else { continue }
            let path = String(decoding: target[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if path.hasPrefix(prefix) { count += 1 }
        }
        return count
    }

    /// A file holding `bytes`, open for reading and already unlinked; its path starts with `prefix`.
    func file(_ bytes: [UInt8], prefix: String = "/tmp/readahead-") throws -> FileDescriptor {
        let path = "\(prefix)\(UInt64.random(in: 0...UInt64.max))"
        defer { unlink(path) }
        do {
            let out = try FileDescriptor.createExclusive(path)
            try out.write(bytes)
        }
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
    /// descriptors of 20 abandoned readers' files are all closed. Only this test's own files are
    /// counted (tests beside it open others), and a descriptor may close a moment after deinit
    /// returns (the reading thread lets go of its state as it exits): a leaked one never does.
    @Test func canBeAbandonedHalfWay() throws {
        let prefix = "/tmp/readahead-abandoned-\(UInt64.random(in: 0...UInt64.max))-"
        for _ in 0..<20 {
            let reader = try ReadAheadReader(
                file: try file([UInt8](repeating: 2, count: 1_000_000), prefix: prefix), start: 0, length: 1_000_000,
                chunkSize: 4096, depth: 2, hasher: DigestHasher(.sha1))
            let first = try #require(try reader.next())
            #expect(first.count == 4096 && first.allSatisfy { $0 == 2 })
            #expect(descriptors(openOn: prefix) >= 1, "a live reader's file is counted")
        }
        var open = descriptors(openOn: prefix)
        for _ in 0..<600 where open > 0 {
            usleep(50_000)
            open = descriptors(openOn: prefix)
        }
        #expect(open == 0, "descriptors still open on the abandoned readers' files after 30 s: \(open)")
    }
}
