import IAPSystem
import PayloadKit
import Testing

/// `visitData` hands out the same bytes as `readData`, in place, under the same checks.
@Suite struct PayloadVisitDataTests {
    /// A payload of a folder, a small file, a symlink and a 3 MiB file, gzip'd as `members` members.
    private func payload(members: Int) throws -> (payload: [UInt8], big: [UInt8]) {
        var raw: [UInt8] = []
        let big = (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
        let writer = try CpioWriter { raw.append(contentsOf: $0) }
        try writer.addDirectory(path: ".", mode: 0o755, modificationTime: 1)
        try writer.addFile(path: "./a", mode: 0o644, modificationTime: 1, size: 4) { write in
            try Array("data".utf8).withUnsafeBytes { try write($0) }
        }
        try writer.addSymlink(path: "./l", target: "a", mode: 0o755, modificationTime: 1)
        try writer.addFile(path: "./big", mode: 0o644, modificationTime: 1, size: UInt64(big.count)) { write in
            try big.withUnsafeBytes { try write($0) }
        }
        try writer.finish()
        let step = (raw.count + members - 1) / members
        var payload: [UInt8] = []
        for start in stride(from: 0, to: raw.count, by: step) {
            payload += try PayloadTestSupport.gzip(Array(raw[start..<min(raw.count, start + step)]))
        }
        return (payload, big)
    }

    /// Every entry and its data, read with `visitData`.
    private func visitAll(_ payload: [UInt8], maxDecodedBytes: UInt64 = 64 << 20) throws -> [ReadEntry] {
        let reader = try PayloadReader(
            maxDecodedBytes: maxDecodedBytes, source: PayloadTestSupport.source(payload, chunk: 100_000))
        var result: [ReadEntry] = []
        while let entry = try reader.nextEntry() {
            var data: [UInt8] = []
            while try reader.visitData({ data.append(contentsOf: $0) }) > 0 {}
            result.append(ReadEntry(entry: entry, data: data))
        }
        return result
    }

    @Test(arguments: [1, 3, 7])
    func visitingGivesWhatReadingGives(members: Int) throws {
        let (payload, big) = try payload(members: members)
        let visited = try visitAll(payload)
        #expect(visited == (try PayloadTestSupport.readAll(payload)))
        #expect(visited.map(\.entry.path) == [".", "./a", "./l", "./big"])
        #expect(visited.last?.data == big)
    }

    @Test func visitingStopsAtTheCapLikeReading() throws {
        let (payload, _) = try payload(members: 1)
        let cap: UInt64 = 1 << 20
        #expect(throws: PayloadError.self) { try visitAll(payload, maxDecodedBytes: cap) }
        #expect(PayloadTestSupport.firstError(payload, maxDecodedBytes: cap) != nil)
    }

    @Test func visitingWithoutAnEntryIsRefused() throws {
        let (payload, _) = try payload(members: 1)
        let reader = try PayloadReader(maxDecodedBytes: 64 << 20, source: PayloadTestSupport.source(payload))
        #expect(throws: PayloadError.self) { try reader.visitData { _ in } }
    }
}
