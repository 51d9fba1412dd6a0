import Foundation
import IAPCompression
import IAPTestSupport
import PayloadKit
import Testing

/// Broken and hostile payloads: each must stop the reader with the exact error, never crash or hang.
@Suite struct PayloadHostileInputTests {
    private typealias Support = PayloadTestSupport

    /// Raw odc bytes of `.` plus one file, with the trailer.
    private func simpleCpio(trailer: Bool = true) -> [UInt8] {
        var builder = OdcBuilder()
        builder.add(".", mode: 0o040755, ino: 1, nlink: 2)
        builder.add("./ContentInfo.plist", mode: 0o100644, data: Array("plist".utf8), ino: 2)
        if trailer { builder.addTrailer() }
        return builder.bytes
    }

    @Test func decompressionBombStopsAtTheCap() throws {
        // One gzip member: a cpio header for a 1 GiB file, then 1 GiB of zeros (about 1 MiB compressed).
        let gibibyte: UInt64 = 1 << 30
        let header = OdcBuilder.header(name: Array("./Contents/zeros".utf8), mode: 0o100644, size: gibibyte, ino: 1)
        var bomb: [UInt8] = []
        let deflater = Deflater(format: .gzip, level: 6)
        try header.withUnsafeBytes { try deflater.compress($0, finish: false) { bomb.append(contentsOf: $0) } }
        let zeros = [UInt8](repeating: 0, count: 1 << 20)
        for index in 0..<1024 {
            try zeros.withUnsafeBytes {
                try deflater.compress($0, finish: index == 1023) { bomb.append(contentsOf: $0) }
            }
        }
        #expect(bomb.count < 2 << 20)

        let limit: UInt64 = 10 << 20
        let clock = ContinuousClock()
        let started = clock.now
        let reader = try PayloadReader(maxDecodedBytes: limit, source: Support.source(bomb, chunk: 64 * 1024))
        var caught: PayloadError?
        do {
            let entry = try #require(try reader.nextEntry())
            #expect(entry.size == gibibyte)
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            while try buffer.withUnsafeMutableBytes({ try reader.readData(into: $0) }) > 0 {}
        } catch let error as PayloadError {
            caught = error
        }
        guard case .decompressionBomb(let reportedLimit, let offset) = caught else {
            Issue.record("expected a bomb error, got \(String(describing: caught))")
            return
        }
        #expect(reportedLimit == limit)
        #expect(offset < UInt64(bomb.count))
        #expect(reader.decodedBytes <= limit)
        #expect(reader.decodedBytes > limit - (1 << 20))
        #expect(clock.now - started < .seconds(5))
        // The reader stays failed.
        #expect(throws: PayloadError.decompressionBomb(limit: limit, compressedOffset: offset)) {
            try reader.nextEntry()
        }
    }

    @Test func junkAfterTheGzipStreamFails() throws {
        let payload = try SampleContent.payload()
        #expect(Support.firstError(payload + Array("JUNK".utf8)) == .junkAfterGzip(offset: UInt64(payload.count)))
        #expect(Support.firstError(payload + [0x1f]) == .junkAfterGzip(offset: UInt64(payload.count)))
        #expect(Support.firstError(payload + [0, 0, 0, 0]) == .junkAfterGzip(offset: UInt64(payload.count)))
    }

    @Test func aTruncatedStreamFails() throws {
        let payload = try SampleContent.payload()
        for cut in [payload.count - 1, payload.count - 8, payload.count / 2, 20] {
            #expect(
                Support.firstError(Array(payload.prefix(cut))) == .truncatedGzip(offset: UInt64(cut)), "cut at \(cut)")
        }
    }

    @Test func aCpioWithoutTrailerFails() throws {
        let raw = simpleCpio(trailer: false)
        let error = Support.firstError(try Support.gzip(raw))
        #expect(error == .cpioEndsEarly(offset: UInt64(raw.count), headerOffset: nil, path: nil))
    }

    @Test func aCpioCutInsideFileDataFails() throws {
        let raw = simpleCpio(trailer: false)
        let error = Support.firstError(try Support.gzip(Array(raw.dropLast(2))))
        #expect(error == .cpioEndsEarly(offset: UInt64(raw.count - 2), headerOffset: 78, path: "./ContentInfo.plist"))
    }

    @Test func namesAreReportedExactlyNotJudged() throws {
        var builder = OdcBuilder()
        builder.add(".", mode: 0o040755, ino: 1, nlink: 2)
        builder.add("../x", mode: 0o100644, data: Array("evil".utf8), ino: 2)
        builder.add("/etc/passwd", mode: 0o100644, data: [], ino: 3)
        builder.add("./Contents/../../y", mode: 0o120777, data: Array("/etc".utf8), ino: 4)
        builder.addTrailer()
        let entries = try Support.readAll(try Support.gzip(builder.bytes))
        #expect(entries.map(\.entry.path) == [".", "../x", "/etc/passwd", "./Contents/../../y"])
        #expect(entries[1].entry.kind == .file)
        #expect(entries[1].data == Array("evil".utf8))
        #expect(entries[3].entry.kind == .symlink)
        #expect(entries[3].entry.linkTarget == "/etc")
    }

    @Test func aSecondLinkToTheSameInodeReadsAsHardlink() throws {
        var builder = OdcBuilder()
        builder.add(".", mode: 0o040755, ino: 1, nlink: 2)
        builder.add("./Contents/a", mode: 0o100644, data: Array("same".utf8), ino: 7, nlink: 2)
        builder.add("./Contents/b", mode: 0o100644, data: Array("same".utf8), ino: 7, nlink: 2)
        builder.addTrailer()
        let entries = try Support.readAll(try Support.gzip(builder.bytes))
        #expect(entries.map(\.entry.kind) == [.directory, .file, .hardlink])
        #expect(entries[1].entry.hardlinkTarget == nil)
        #expect(entries[2].entry.hardlinkTarget == "./Contents/a")
        #expect(entries[2].entry.mode == 0o100644)
        #expect(entries[2].entry.inode == 7)
    }

    @Test func specialFilesKeepTheirKinds() throws {
        var builder = OdcBuilder()
        builder.add("./fifo", mode: 0o010644, ino: 1)
        builder.add("./chr", mode: 0o020644, ino: 2)
        builder.add("./blk", mode: 0o060644, ino: 3)
        builder.add("./sock", mode: 0o140644, ino: 4)
        builder.add("./odd", mode: 0o170644, ino: 5)
        builder.addTrailer()
        let entries = try Support.readAll(try Support.gzip(builder.bytes))
        #expect(entries.map(\.entry.kind) == [.fifo, .characterDevice, .blockDevice, .socket, .unknown(0o170000)])
    }

    @Test func dataAfterTheTrailerFails() throws {
        let raw = simpleCpio()
        #expect(
            Support.firstError(try Support.gzip(raw + [0, 0, 0, 7])) == .dataAfterTrailer(offset: UInt64(raw.count + 3))
        )
        #expect(
            Support.firstError(try Support.gzip(raw + Array("070707".utf8)))
                == .dataAfterTrailer(offset: UInt64(raw.count)))
        // NUL padding (GNU cpio pads to 512-byte blocks) is fine.
        #expect(try Support.readAll(try Support.gzip(raw + [UInt8](repeating: 0, count: 200_000))).count == 2)
    }

    @Test func garbageBetweenEntriesFails() throws {
        var builder = OdcBuilder()
        builder.add(".", mode: 0o040755, ino: 1, nlink: 2)
        var raw = builder.bytes + Array("garbage".utf8)
        builder = OdcBuilder()
        builder.add("./hidden", mode: 0o100644, data: Array("x".utf8), ino: 2)
        builder.addTrailer()
        raw += builder.bytes
        #expect(
            Support.firstError(try Support.gzip(raw))
                == .invalidEntry(
                    headerOffset: 78,
                    reason: "no cpio header magic (found \"garbag\"; expected 070707, 070701 or 070702)"))
    }

    @Test func aNameThatIsNotUTF8Fails() throws {
        var builder = OdcBuilder()
        builder.add(".", mode: 0o040755, ino: 1, nlink: 2)
        builder.add(nameBytes: [0x2e, 0x2f, 0xff, 0x41], mode: 0o100644, ino: 2)
        builder.addTrailer()
        #expect(
            Support.firstError(try Support.gzip(builder.bytes))
                == .invalidEntryName(headerOffset: 78, reason: "its name is not valid UTF-8"))
    }

    @Test func inputThatIsNotCompressedFails() throws {
        #expect(throws: PayloadError.unrecognizedCompression(leadingBytes: Array("070707".utf8))) {
            try PayloadReader(maxDecodedBytes: 1 << 20, source: Support.source(self.simpleCpio()))
        }
        #expect(throws: PayloadError.unrecognizedCompression(leadingBytes: [])) {
            try PayloadReader(maxDecodedBytes: 1 << 20, source: Support.source([]))
        }
    }

    @Test func corruptDeflateDataFails() throws {
        var payload = try SampleContent.payload()
        payload[payload.count - 6] ^= 0xff  // inside the CRC-32 trailer
        guard case .corruptGzip = Support.firstError(payload) else {
            Issue.record("expected corruptGzip, got \(String(describing: Support.firstError(payload)))")
            return
        }
        var garbled = try SampleContent.payload()
        for index in 12..<40 { garbled[index] = 0xff }
        guard case .corruptGzip = Support.firstError(garbled) else {
            Issue.record("expected corruptGzip, got \(String(describing: Support.firstError(garbled)))")
            return
        }
    }

    @Test func aFailingSourceIsReported() throws {
        struct Broken: Error, CustomStringConvertible { var description: String { "disk on fire" } }
        #expect(throws: PayloadError.inputFailed("disk on fire")) {
            try PayloadReader(maxDecodedBytes: 1 << 20, source: { _ in throw Broken() })
        }
        #expect(throws: PayloadError.inputFailed("the source reported 99999999 bytes for a 6-byte buffer")) {
            try PayloadReader(maxDecodedBytes: 1 << 20, source: { _ in 99_999_999 })
        }
    }

    @Test func readDataNeedsAnEntry() throws {
        let reader = try PayloadReader(maxDecodedBytes: 1 << 20, source: Support.source(try SampleContent.payload()))
        var buffer = [UInt8](repeating: 0, count: 16)
        #expect(throws: PayloadError.noCurrentEntry) {
            try buffer.withUnsafeMutableBytes { try reader.readData(into: $0) }
        }
    }

    @Test func newcIsReadAndBinaryCpioIsRefused() throws {
        let directory = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("c/Contents"), withIntermediateDirectories: true)
        try Data("v".utf8).write(to: directory.appendingPathComponent("c/Contents/f"))
        let made = try Support.run(
            "cd c && bsdtar --format newc -czf ../newc.gz . && bsdtar --format bin -czf ../bin.gz .",
            in: directory)
        #expect(made.status == 0, "\(made.stderr)")
        let newc = try Support.readAll(Array(try Data(contentsOf: directory.appendingPathComponent("newc.gz"))))
        #expect(Set(newc.map(\.entry.path)) == [".", "./Contents", "./Contents/f"])
        #expect(newc.first { $0.entry.path == "./Contents/f" }?.data == Array("v".utf8))
        let binary = Support.firstError(Array(try Data(contentsOf: directory.appendingPathComponent("bin.gz"))))
        guard case .unsupportedCpioFormat(let name) = binary else {
            Issue.record("expected unsupportedCpioFormat, got \(String(describing: binary))")
            return
        }
        #expect(name.contains("binary"), "\(name)")
    }
}
