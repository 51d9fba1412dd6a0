import Foundation
import IAPTestSupport
import PayloadKit
import Testing

/// The cpio parser: newc and newc-crc as GNU cpio writes them, hard links as each format means
/// them, pkgbuild's link counts, and every malformed header refused with its offset.
@Suite struct CpioFormatTests {
    private typealias Support = PayloadTestSupport

    /// Payload bytes GNU cpio makes (format `odc` or `newc`) from a folder holding a hard-linked pair.
    private func gnuCpioPayload(format: String) throws -> [ReadEntry] {
        let directory = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let root = directory.appendingPathComponent("c")
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("Contents"), withIntermediateDirectories: true)
        try Data("hello\n".utf8).write(to: root.appendingPathComponent("Contents/a.txt"))
        try FileManager.default.linkItem(
            atPath: root.appendingPathComponent("Contents/a.txt").path,
            toPath: root.appendingPathComponent("Contents/z.txt").path)
        let made = try Support.run(
            "find . | LC_ALL=C sort | cpio -o -H \(format) --quiet | gzip -n > ../Payload", in: root)
        #expect(made.status == 0, "\(made.stderr)")
        return try Support.readAll(Array(try Data(contentsOf: directory.appendingPathComponent("Payload"))))
    }

    /// The error reading a newc-crc payload of one entry whose check field is `check` gives.
    private func firstErrorOfOneCrcEntry(_ path: String, mode: UInt32, data: [UInt8], check: UInt64) throws
        -> PayloadError?
    {
        var builder = NewcBuilder(crc: true)
        builder.add(path, mode: mode, data: data, ino: 2, check: check)
        builder.addTrailer()
        return Support.firstError(try Support.gzip(builder.bytes))
    }

    @Test func gnuNewcCarriesTheDataWithTheLastLink() throws {
        let entries = try gnuCpioPayload(format: "newc")
        let first = try #require(entries.first { $0.entry.path == "Contents/a.txt" })
        let last = try #require(entries.first { $0.entry.path == "Contents/z.txt" })
        #expect(first.entry.kind == .file)
        #expect(first.entry.size == 0)
        #expect(first.data.isEmpty)
        #expect(last.entry.kind == .hardlink)
        #expect(last.entry.hardlinkTarget == "Contents/a.txt")
        #expect(last.entry.size == 6)
        #expect(last.data == Array("hello\n".utf8))
        #expect(entries.filter { $0.entry.kind == .directory }.count == 2)
    }

    @Test func gnuOdcCarriesTheDataWithEveryLink() throws {
        let entries = try gnuCpioPayload(format: "odc")
        let first = try #require(entries.first { $0.entry.path == "Contents/a.txt" })
        let last = try #require(entries.first { $0.entry.path == "Contents/z.txt" })
        #expect(first.entry.kind == .file)
        #expect(first.data == Array("hello\n".utf8))
        #expect(last.entry.kind == .hardlink)
        #expect(last.entry.hardlinkTarget == "Contents/a.txt")
        #expect(last.data == Array("hello\n".utf8))
    }

    @Test func gnuNewcCrcIsReadAndChecked() throws {
        let entries = try gnuCpioPayload(format: "crc")
        #expect(entries.first { $0.entry.path == "Contents/z.txt" }?.data == Array("hello\n".utf8))
    }

    @Test func gnuNewcCrcSymlinksWithCheckZeroAreRead() throws {
        // GNU cpio -H crc writes a symlink's check field as 0 (only regular files are summed).
        let directory = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let root = directory.appendingPathComponent("c")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try Data("hello\n".utf8).write(to: root.appendingPathComponent("f"))
        try FileManager.default.createSymbolicLink(
            atPath: root.appendingPathComponent("l").path, withDestinationPath: "f")
        let made = try Support.run(
            "printf 'f\\nl\\n' | cpio -o -H crc --quiet > ../raw && gzip -n < ../raw > ../Payload", in: root)
        #expect(made.status == 0, "\(made.stderr)")
        let raw = Array(try Data(contentsOf: directory.appendingPathComponent("raw")))
        let link = try #require(raw.indices.first { raw[$0...].starts(with: Array("l\0".utf8)) && $0 >= 110 })
        #expect(String(decoding: raw[(link - 110 + 102)..<(link - 110 + 110)], as: UTF8.self) == "00000000")
        let entries = try Support.readAll(Array(try Data(contentsOf: directory.appendingPathComponent("Payload"))))
        #expect(entries.map(\.entry.path) == ["f", "l"])
        #expect(entries[1].entry.kind == .symlink && entries[1].entry.linkTarget == "f")
    }

    @Test func aNewcCrcSymlinkWithAWrongNonZeroCheckIsRefused() throws {
        #expect(
            try firstErrorOfOneCrcEntry("./l", mode: 0o120755, data: Array("f".utf8), check: 7)
                == .invalidEntry(
                    headerOffset: 0, reason: "its data sums to 102 but its newc-crc check field says 7 (./l)"))
        var zero = NewcBuilder(crc: true)
        zero.add("./l", mode: 0o120755, data: Array("f".utf8), ino: 1, check: 0)
        zero.addTrailer()
        #expect(try Support.readAll(try Support.gzip(zero.bytes)).map(\.entry.linkTarget) == ["f"])
    }

    @Test func pkgbuildLinkCountsAreNotHardLinks() throws {
        // pkgbuild: inodes 0, 1, 2… in archive order; a folder's nlink is 2 plus its child folders.
        var builder = OdcBuilder()
        builder.add(".", mode: 0o040755, ino: 0, nlink: 3)
        builder.add("./Contents", mode: 0o040755, ino: 1, nlink: 4)
        builder.add("./Contents/a", mode: 0o040755, ino: 2, nlink: 2)
        builder.add("./Contents/b", mode: 0o040755, ino: 3, nlink: 2)
        builder.add("./Contents/b/f", mode: 0o100644, data: Array("x".utf8), ino: 4)
        builder.addTrailer()
        let entries = try Support.readAll(try Support.gzip(builder.bytes))
        #expect(entries.map(\.entry.kind) == [.directory, .directory, .directory, .directory, .file])
        #expect(entries.allSatisfy { $0.entry.hardlinkTarget == nil })
    }

    @Test func inodeZeroLinksLikeAnyOther() throws {
        var builder = OdcBuilder()
        builder.add("./a", mode: 0o100644, data: [1], ino: 0, nlink: 2)
        builder.add("./b", mode: 0o100644, data: [1], ino: 0, nlink: 2)
        builder.addTrailer()
        let entries = try Support.readAll(try Support.gzip(builder.bytes))
        #expect(entries.map(\.entry.kind) == [.file, .hardlink])
        #expect(entries[1].entry.hardlinkTarget == "./a")
    }

    @Test func newcPaddingAndChecksAreEnforced() throws {
        var good = NewcBuilder(crc: true)
        good.add(".", mode: 0o040755, ino: 1, nlink: 2)
        good.add("./f", mode: 0o100644, data: Array("abcde".utf8), ino: 2)
        good.addTrailer()
        #expect(try Support.readAll(try Support.gzip(good.bytes)).map(\.data) == [[], Array("abcde".utf8)])

        #expect(
            try firstErrorOfOneCrcEntry("./f", mode: 0o100644, data: Array("abcde".utf8), check: 7)
                == .invalidEntry(
                    headerOffset: 0, reason: "its data sums to 495 but its newc-crc check field says 7 (./f)"))

        var dirtyPadding = NewcBuilder()
        dirtyPadding.add("./f", mode: 0o100644, data: Array("abcde".utf8), ino: 2)
        let dataEnd = 110 + 4 + 2 + 5  // header, "./f\0", two pad bytes, the data
        var raw = dirtyPadding.bytes
        raw[dataEnd] = 0x41
        var trailer = NewcBuilder()
        trailer.addTrailer()
        #expect(
            Support.firstError(try Support.gzip(raw + trailer.bytes))
                == .invalidEntry(
                    headerOffset: 0, reason: "its alignment padding at decoded byte \(dataEnd) is not NUL bytes (./f)"))
    }

    @Test func oneFormatPerPayload() throws {
        var odc = OdcBuilder()
        odc.add(".", mode: 0o040755, ino: 1, nlink: 2)
        var newc = NewcBuilder()
        newc.addTrailer()
        #expect(
            Support.firstError(try Support.gzip(odc.bytes + newc.bytes))
                == .invalidEntry(
                    headerOffset: 78,
                    reason:
                        "it is cpio newc (070701), but the payload began as cpio odc (070707); one payload uses one format"
                ))
    }

    @Test func malformedHeadersAreRefusedWithTheirOffset() throws {
        func payload(_ edit: (inout [UInt8]) -> Void) throws -> [UInt8] {
            var builder = OdcBuilder()
            builder.add(".", mode: 0o040755, ino: 1, nlink: 2)
            builder.add("./f", mode: 0o100644, data: Array("data".utf8), ino: 2)
            builder.addTrailer()
            var raw = builder.bytes
            edit(&raw)
            return try Support.gzip(raw)
        }
        let second = 78  // "." takes 76 + 2 bytes
        #expect(
            Support.firstError(try payload { $0[second + 14] = 0x38 })  // an 8 in the octal ino field
                == .invalidEntry(
                    headerOffset: 78,
                    reason: "its ino field (header byte 12) holds a character that is not an octal digit"))
        #expect(
            Support.firstError(try payload { $0[second + 76 + 3] = 0x41 })  // the name's NUL replaced
                == .invalidEntry(headerOffset: 78, reason: "its name is not NUL-terminated within its namesize 4"))
        #expect(
            Support.firstError(try payload { $0[second + 76 + 1] = 0 })
                == .invalidEntry(headerOffset: 78, reason: "its name holds a NUL byte before its end (namesize 4)"))
        #expect(
            Support.firstError(
                try payload { raw in
                    raw.replaceSubrange((second + 59)..<(second + 65), with: Array("000001".utf8))
                })
                == .invalidEntry(
                    headerOffset: 78, reason: "its namesize is 1; a name needs at least one byte and its NUL"))
        #expect(
            Support.firstError(
                try payload { raw in
                    raw.replaceSubrange((second + 59)..<(second + 65), with: Array("010001".utf8))
                })
                == .invalidEntry(
                    headerOffset: 78, reason: "its namesize is 4097; names longer than 4095 bytes are refused"))
        #expect(
            Support.firstError(try payload { raw in raw = Array(raw.prefix(second + 40)) })
                == .cpioEndsEarly(offset: UInt64(second + 40), headerOffset: 78, path: nil))
    }

    @Test func aSymlinkTargetIsItsBody() throws {
        var builder = NewcBuilder()
        builder.add("./l", mode: 0o120777, data: Array("target".utf8), ino: 1)
        builder.add("./bad", mode: 0o120777, data: [0x61, 0, 0x62], ino: 2)
        builder.addTrailer()
        let payload = try Support.gzip(builder.bytes)
        #expect(
            Support.firstError(payload)
                == .invalidEntry(headerOffset: 124, reason: "its symlink target contains a NUL byte"))
        var good = NewcBuilder()
        good.add("./l", mode: 0o120777, data: Array("target".utf8), ino: 1)
        good.addTrailer()
        let entries = try Support.readAll(try Support.gzip(good.bytes))
        #expect(entries.first?.entry.linkTarget == "target")
        #expect(entries.first?.entry.kind == .symlink)
        #expect(entries.first?.data == [])
    }
}
