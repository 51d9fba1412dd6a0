import Testing

@testable import BomKit

/// Path records as PackageMaker-era tools (2011) wrote them: a directory's record ends after the
/// byte at offset 22 (23 bytes), a file's after its checksum (27 bytes).
@Suite struct OldRecordTests {
    /// A record of `length` bytes laid out from the format facts: type, 1, architecture 15, mode,
    /// uid, gid, mtime, size, 1, then (from 27 bytes) the checksum and (from 31) the link length.
    static func record(type: UInt8, mode: UInt16, size: UInt32 = 0, checksum: UInt32 = 0, length: Int) -> [UInt8] {
        var bytes: [UInt8] =
            [type, 1] + be16(15) + be16(mode) + be32(501) + be32(20) + be32(1_300_000_000) + be32(size) + [1]
        bytes += be32(checksum) + be32(0)
        return Array(bytes.prefix(length))
    }

    /// A Bom whose paths (id, parent id, name) use the given raw records.
    static func bom(_ paths: [(id: UInt32, parent: UInt32, name: String, record: [UInt8])]) throws -> [UInt8] {
        var store = BlockStore()
        let infoBlock = store.add(be32(1) + be32(UInt32(paths.count + 1)) + be32(0))
        var entries: [TreeBuilder.Entry] = []
        for path in paths {
            let record = store.add(path.record)
            let pathInfo = store.add(be32(path.id) + be32(record))
            let file = store.add(be32(path.parent) + Array(path.name.utf8) + [0])
            entries.append((pathInfo, file))
        }
        let tree = TreeBuilder.build(entries, pageSize: 4096, pathCount: UInt32(paths.count), into: &store)
        return try store.serialize(variables: [("BomInfo", infoBlock), ("Paths", tree)])
    }

    @Test func shortRecordsRead() throws {
        let bytes = try Self.bom([
            (1, 0, ".", Self.record(type: 2, mode: 0o40755, length: 23)),
            (2, 1, "Contents", Self.record(type: 2, mode: 0o40775, size: 102, length: 23)),
            (3, 2, "a.txt", Self.record(type: 1, mode: 0o100664, size: 1162, checksum: 0xbb50_c9c6, length: 27)),
        ])
        let entries = try BomReader.read(bytes)
        #expect(entries.map(\.path) == [".", "./Contents", "./Contents/a.txt"])
        #expect(entries.map(\.kind) == [.directory, .directory, .file])
        #expect(entries[2].size == 1162)
        #expect(entries[2].checksum == 0xbb50_c9c6)
        #expect(entries[2].uid == 501)
        #expect(entries[1].checksum == 0)
        #expect(entries[1].linkTarget == nil)
    }

    @Test func recordsCutInsideAFieldAreRefused() throws {
        for length in [24, 26, 28, 30] {
            let bytes = try Self.bom([(1, 0, ".", Self.record(type: 2, mode: 0o40755, length: length))])
            #expect(
                throws: BomError.badRecord(
                    block: 2,
                    reason:
                        "a \(length)-byte record ends inside a field; records hold 23 (directory), 27 (file) or at least 31 bytes"
                )
            ) {
                try BomReader.read(bytes)
            }
        }
        let tooShort = try Self.bom([(1, 0, ".", Self.record(type: 2, mode: 0o40755, length: 22))])
        #expect(throws: BomError.blockTooShort(index: 2, holding: "a path record", length: 22, minimum: 23)) {
            try BomReader.read(tooShort)
        }
    }

    @Test func universalBinaryRecordsRead() throws {
        // After the checksum: 1, the architecture count, then cputype, subtype, size, checksum each.
        let arch =
            [UInt8](be32(0x12) + be32(10) + be32(0xa560) + be32(0x6eb9_ef5a)) + be32(7) + be32(3) + be32(0xb3e0)
            + be32(0xa7ca_71c6)
        var macho =
            Self.record(type: 1, mode: 0o100755, size: 0x21d00, checksum: 0x243c_397d, length: 27) + [1] + be32(2)
            + arch
        macho[2] = 0x20
        let bytes = try Self.bom([(1, 0, ".", Self.record(type: 2, mode: 0o40755, length: 23)), (2, 1, "lib", macho)])
        let entries = try BomReader.read(bytes)
        #expect(entries.last?.checksum == 0x243c_397d)
        #expect(entries.last?.size == 0x21d00)

        // One byte short of its architectures: read as the newer layout, whose link length it breaks.
        let cut = try Self.bom([
            (1, 0, ".", Self.record(type: 2, mode: 0o40755, length: 23)), (2, 1, "lib", Array(macho.dropLast())),
        ])
        #expect(throws: BomError.badRecord(block: 5, reason: "link target length 16777216 on a file")) {
            try BomReader.read(cut)
        }
    }

    @Test func aSymlinkNeedsItsLinkLength() throws {
        let bytes = try Self.bom([
            (1, 0, ".", Self.record(type: 2, mode: 0o40755, length: 23)),
            (2, 1, "l", Self.record(type: 3, mode: 0o120755, length: 27)),
        ])
        #expect(throws: BomError.blockTooShort(index: 5, holding: "a symlink record", length: 27, minimum: 31)) {
            try BomReader.read(bytes)
        }
    }
}
