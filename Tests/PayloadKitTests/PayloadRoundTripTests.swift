import IAPSystem
import PayloadKit
import Testing

@Suite struct PayloadRoundTripTests {
    /// The exact entries our writer must produce for `SampleContent`, header offsets included
    /// (odc: 76-byte header + name + NUL + data, no alignment).
    static func expectedEntries() -> [ReadEntry] {
        var offset: UInt64 = 0
        var result: [ReadEntry] = []
        for (index, item) in SampleContent.items.enumerated() {
            let inode = UInt64(index + 1)
            let entry: PayloadEntry
            let data: [UInt8]
            var stored: UInt64
            switch item {
            case .directory(let path, let mode):
                entry = PayloadEntry(
                    path: path, kind: .directory, mode: 0o040000 | UInt32(mode), size: 0,
                    modificationTime: SampleContent.modificationTime, inode: inode, nlink: 1,
                    headerOffset: offset)
                data = []
                stored = 0
            case .file(let path, let mode, let bytes):
                entry = PayloadEntry(
                    path: path, kind: .file, mode: 0o100000 | UInt32(mode), size: UInt64(bytes.count),
                    modificationTime: SampleContent.modificationTime, inode: inode, nlink: 1,
                    headerOffset: offset)
                data = bytes
                stored = UInt64(bytes.count)
            case .symlink(let path, let target):
                // libarchive reports a symlink's size as its target's length (the odc body).
                entry = PayloadEntry(
                    path: path, kind: .symlink, mode: 0o120755, size: UInt64(target.utf8.count),
                    modificationTime: SampleContent.modificationTime, linkTarget: target,
                    inode: inode, nlink: 1, headerOffset: offset)
                data = []
                stored = UInt64(target.utf8.count)
            }
            result.append(ReadEntry(entry: entry, data: data))
            let path = SampleContent.paths[index]
            offset += 76 + UInt64(path.utf8.count + 1) + stored
        }
        return result
    }

    @Test func readsBackExactlyWhatWasWritten() throws {
        let payload = try SampleContent.payload()
        let entries = try PayloadTestSupport.readAll(payload)
        let expected = Self.expectedEntries()
        #expect(entries.count == expected.count)
        for (read, want) in zip(entries, expected) {
            #expect(read == want)
        }
    }

    @Test func reportsDecodedBytesUpToTheTrailer() throws {
        let payload = try SampleContent.payload()
        let reader = try PayloadReader(maxDecodedBytes: 1 << 20, source: PayloadTestSupport.source(payload))
        while try reader.nextEntry() != nil {}
        let last = try #require(Self.expectedEntries().last)
        let trailerOffset =
            last.entry.headerOffset + 76 + UInt64(last.entry.path.utf8.count + 1)
            + UInt64(last.entry.linkTarget?.utf8.count ?? 0)
        #expect(reader.decodedBytes == trailerOffset + 76 + 11)
        #expect(try reader.nextEntry() == nil)
    }

    @Test func twoWritesAreByteIdentical() throws {
        let first = try SampleContent.payload()
        let second = try SampleContent.payload()
        #expect(first == second)
        #expect(try SampleContent.payload(level: 9) == SampleContent.payload(level: 9))
    }

    @Test func gzipHeaderHasNoTimeAndNoName() throws {
        let payload = try SampleContent.payload(level: 6)
        // magic, deflate, no flags (so no name), mtime 0: nothing that varies between builds.
        #expect(Array(payload.prefix(8)) == [0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0])
    }

    @Test func cpioBytesAreExactlyOdc() throws {
        var raw: [UInt8] = []
        let writer = try CpioWriter { raw.append(contentsOf: $0) }
        try writer.addDirectory(path: ".", mode: 0o755, modificationTime: 0o1234)
        try writer.addFile(path: "./ContentInfo.plist", mode: 0o644, modificationTime: 5, size: 3) { write in
            try [UInt8]([1, 2, 3]).withUnsafeBytes { try write($0) }
        }
        try writer.addSymlink(path: "./Contents/l", target: "x", mode: 0o755, modificationTime: 0)
        try writer.finish()
        let expected =
            Array(
                ("070707" + "000000" + "000001" + "040755" + "000000" + "000000" + "000001" + "000000"
                    + "00000001234" + "000002" + "00000000000" + ".\0"
                    + "070707" + "000000" + "000002" + "100644" + "000000" + "000000" + "000001" + "000000"
                    + "00000000005" + "000024" + "00000000003" + "./ContentInfo.plist\0").utf8) + [1, 2, 3]
            + Array(
                ("070707" + "000000" + "000003" + "120755" + "000000" + "000000" + "000001" + "000000"
                    + "00000000000" + "000015" + "00000000001" + "./Contents/l\0" + "x"
                    + "070707" + "000000" + "000000" + "000000" + "000000" + "000000" + "000001" + "000000"
                    + "00000000000" + "000013" + "00000000000" + "TRAILER!!!\0").utf8)
        #expect(raw == expected)
    }

    @Test func readsAPayloadSplitIntoSeveralGzipMembers() throws {
        var raw: [UInt8] = []
        let writer = try CpioWriter { raw.append(contentsOf: $0) }
        try writer.addDirectory(path: ".", mode: 0o755, modificationTime: 1)
        try writer.addFile(path: "./a", mode: 0o644, modificationTime: 1, size: 4) { write in
            try Array("data".utf8).withUnsafeBytes { try write($0) }
        }
        try writer.finish()
        let payload =
            try PayloadTestSupport.gzip(Array(raw[0..<50])) + PayloadTestSupport.gzip(Array(raw[50..<100]))
            + PayloadTestSupport.gzip(Array(raw[100...]))
        let entries = try PayloadTestSupport.readAll(payload)
        #expect(entries.map(\.entry.path) == [".", "./a"])
        #expect(entries.last?.data == Array("data".utf8))
    }
}
