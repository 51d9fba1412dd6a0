import Foundation
import IAPSystem
import PayloadKit
import Testing

/// pbzx Payloads (PackageFormat.md §8 "pbzx Payloads"): assembled here straight from the format's description (chunks of
/// xz made by the system `xz`, and stored chunks) and written by iapkg's own writer, both read back
/// entry for entry; every way the framing can break is refused with its own fault and offset.
@Suite struct PbzxPayloadTests {
    private typealias Support = PayloadTestSupport

    /// A big-endian u64.
    static func u64(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) } }

    /// The raw cpio of the sample content.
    static func rawCpio() throws -> [UInt8] { try Support.filter(try SampleContent.payload(), "gzip -dc") }

    /// "pbzx", the chunk size, then `raw` cut into `chunkSize` pieces: those in `stored` as is,
    /// the others each one xz stream made by the system `xz`.
    static func assemble(_ raw: [UInt8], chunkSize: Int, stored: Set<Int> = []) throws -> [UInt8] {
        var out = Array("pbzx".utf8) + u64(UInt64(chunkSize))
        var index = 0
        for start in stride(from: 0, to: raw.count, by: chunkSize) {
            let piece = Array(raw[start..<min(start + chunkSize, raw.count)])
            let body = stored.contains(index) ? piece : try Support.filter(piece, "xz -c -6")
            out += u64(UInt64(piece.count)) + u64(UInt64(body.count)) + body
            index += 1
        }
        return out
    }

    /// One xz-compressed chunk with a chosen stated size: header, chunk size, one chunk.
    static func oneChunk(size: UInt64, body: [UInt8], chunkSize: UInt64 = 1 << 20) -> [UInt8] {
        Array("pbzx".utf8) + u64(chunkSize) + u64(size) + u64(UInt64(body.count)) + body
    }

    /// The fault a pbzx payload is refused with, and its Payload offset.
    static func fault(_ payload: [UInt8], maxDecodedBytes: UInt64 = 64 << 20) -> (PbzxFault, UInt64)? {
        guard
            case .malformedPbzx(let fault, let offset)? = Support.firstError(payload, maxDecodedBytes: maxDecodedBytes)
        else { return nil }
        return (fault, offset)
    }

    @Test func aPayloadAssembledFromTheFormatsDescriptionReads() throws {
        let expected = try Support.readAll(try SampleContent.payload())
        let raw = try Self.rawCpio()
        // Several chunks, the second and the last stored as they are; and one chunk holding it all.
        #expect(try Support.readAll(try Self.assemble(raw, chunkSize: 700, stored: [1, raw.count / 700])) == expected)
        #expect(try Support.readAll(try Self.assemble(raw, chunkSize: 16 << 20)) == expected)
    }

    @Test func iapkgsWriterMakesChunksTheSystemXzDecodes() throws {
        let expected = try Support.readAll(try SampleContent.payload())
        var bytes: [UInt8] = []
        let writer = try PayloadWriter(pbzxChunkSize: 512) { bytes += $0 }
        for entry in expected {
            switch entry.entry.kind {
            case .directory:
                try writer.addDirectory(path: entry.entry.path, mode: 0o755, modificationTime: 0)
            case .symlink:
                try writer.addSymlink(
                    path: entry.entry.path, target: entry.entry.linkTarget ?? "", mode: 0o755, modificationTime: 0)
            default:
                try writer.addFile(
                    path: entry.entry.path, mode: 0o644, modificationTime: 0, size: UInt64(entry.data.count)
                ) { write in try entry.data.withUnsafeBytes { try write($0) } }
            }
        }
        try writer.finish()
        let read = try Support.readAll(bytes)
        #expect(read.map(\.entry.path) == expected.map(\.entry.path))
        #expect(read.map(\.data) == expected.map(\.data))
        // Walk the framing as the description says; every xz chunk decodes with the system xz.
        #expect(Array(bytes.prefix(4)) == Array("pbzx".utf8))
        #expect(Array(bytes[4..<12]) == Self.u64(512))
        var offset = 12
        var joined: [UInt8] = []
        var xzChunks = 0
        while offset < bytes.count {
            let size = Int(bytes[offset..<(offset + 8)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
            let length = Int(bytes[(offset + 8)..<(offset + 16)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
            let body = Array(bytes[(offset + 16)..<(offset + 16 + length)])
            if length == size {
                joined += body
            } else {
                joined += try Support.filter(body, "xz -dc")
                xzChunks += 1
            }
            #expect(size <= 512)
            offset += 16 + length
        }
        #expect(offset == bytes.count)
        #expect(xzChunks > 0)
        #expect(try Support.readAll(try Self.assemble(joined, chunkSize: 512)) == read)
    }

    @Test func incompressibleChunksAreStored() throws {
        var state: UInt64 = 0x9e37_79b9_7f4a_7c15
        let noise = (0..<3000).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
        var bytes: [UInt8] = []
        let writer = try PayloadWriter(pbzxChunkSize: 1024) { bytes += $0 }
        try writer.addFile(path: "./noise", mode: 0o644, modificationTime: 0, size: 3000) { write in
            try noise.withUnsafeBytes { try write($0) }
        }
        try writer.finish()
        // The first chunk (76-byte header and 948 bytes of noise) does not shrink: stored, length == size.
        #expect(Array(bytes[12..<28]) == Self.u64(1024) + Self.u64(1024))
        #expect(try Support.readAll(bytes).first?.data == noise)
    }

    @Test func brokenFramingIsRefusedWithItsFault() throws {
        let raw = try Self.rawCpio()
        let good = try Self.assemble(raw, chunkSize: 700)
        let xz = try Support.filter(Array(raw.prefix(700)), "xz -c -6")

        #expect(Self.fault(Array("pbzx".utf8) + [0, 0, 1]).map(\.1) == 0)
        guard case .header? = Self.fault(Array("pbzx".utf8) + [0, 0, 1])?.0 else {
            Issue.record("short header")
            return
        }
        #expect(Self.fault(Array("pbzx".utf8) + Self.u64(0))?.0 == .header("the chunk size is 0"))
        // A chunk over the chunk size, and an empty chunk, refused from the numbers at the chunk's header.
        #expect(
            Self.fault(Self.oneChunk(size: 701, body: xz, chunkSize: 700))! == (
                .chunkSize(index: 0, size: 701, chunkSize: 700), 12
            ))
        #expect(
            Self.fault(Self.oneChunk(size: 0, body: [], chunkSize: 700))?.0
                == .chunkSize(index: 0, size: 0, chunkSize: 700))
        // Cut inside the second chunk's header, and inside the first chunk's bytes.
        let secondHeader = 12 + 16 + Int(good[20..<28].reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
        #expect(
            Self.fault(Array(good.prefix(secondHeader + 5)))! == (
                .truncated(index: 1, needed: 16, found: 5), UInt64(secondHeader)
            ))
        guard case .truncated(0, _, _)? = Self.fault(Array(good.prefix(40)))?.0 else {
            Issue.record("cut in chunk 0: \(String(describing: Self.fault(Array(good.prefix(40)))))")
            return
        }
        // An xz chunk that decodes to fewer, or more, bytes than it states.
        guard case .chunkDecode(0, let fewer)? = Self.fault(Self.oneChunk(size: 701, body: xz))?.0,
            case .chunkDecode(0, let more)? = Self.fault(Self.oneChunk(size: 699, body: xz))?.0
        else {
            Issue.record("size mismatch not refused")
            return
        }
        #expect(fewer.contains("decodes to 700 bytes, not the 701"))
        #expect(more.contains("more than the 699"))
        // Bytes after the xz stream inside the stored length.
        guard case .chunkDecode(0, let early)? = Self.fault(Self.oneChunk(size: 700, body: xz + [0, 0, 0, 0, 1]))?.0
        else {
            Issue.record("padding after the xz stream not refused")
            return
        }
        #expect(early.contains("ends after \(xz.count) of the \(xz.count + 5) bytes"))
        // Neither xz nor stored at its size.
        #expect(
            Self.fault(Self.oneChunk(size: 700, body: Array(raw.prefix(600))))?.0
                == .chunkEncoding(index: 0, length: 600, size: 700, leading: Array(raw.prefix(6))))
        // Bytes after the last (short) chunk: another chunk, or junk.
        let short = try Self.assemble(Array(raw.prefix(300)), chunkSize: 700)
        #expect(
            Self.fault(short + short.dropFirst(12))! == (
                .trailing(lastIndex: 0, lastSize: 300, chunkSize: 700), UInt64(short.count)
            ))
        #expect(
            Self.fault(good + [0])?.0
                == .trailing(lastIndex: UInt64(raw.count / 700), lastSize: UInt64(raw.count % 700), chunkSize: 700))
        // Damaged xz bytes: liblzma's reason, at an offset inside the chunk.
        var garbled = Self.oneChunk(size: 700, body: xz)
        garbled[28 + xz.count / 2] ^= 0x55
        guard case (.chunkDecode(0, let reason), let offset)? = Self.fault(garbled) else {
            Issue.record("garbled xz: \(String(describing: Self.fault(garbled)))")
            return
        }
        #expect(reason.contains("damaged"))
        #expect(offset >= 28 && offset <= UInt64(garbled.count))
    }

    @Test func aChunkPastTheCapIsRefusedBeforeItIsDecoded() throws {
        // A chunk that states 2 GiB of output from 60 bytes: the cap refuses it from its header.
        let bomb = Self.oneChunk(size: 2 << 30, body: try Support.filter([1, 2, 3], "xz -c"), chunkSize: 4 << 30)
        #expect(
            Support.firstError(bomb, maxDecodedBytes: 1 << 20)
                == .decompressionBomb(limit: 1 << 20, compressedOffset: 12))
    }

    @Test func faultsNameTheirRulesAndWhatToDo() {
        let faults: [(PbzxFault, String)] = [
            (.header("x"), "shape-pbzx-header"),
            (.chunkSize(index: 0, size: 0, chunkSize: 1), "shape-pbzx-chunk-size"),
            (.truncated(index: 0, needed: 1, found: 0), "shape-pbzx-truncated"),
            (.chunkDecode(index: 0, reason: "x"), "shape-pbzx-chunk-decode"),
            (.chunkEncoding(index: 0, length: 1, size: 2, leading: [1]), "shape-pbzx-chunk-encoding"),
            (.trailing(lastIndex: 0, lastSize: 1, chunkSize: 2), "shape-pbzx-trailing"),
        ]
        for (fault, id) in faults {
            let error = PayloadError.malformedPbzx(fault, offset: 99)
            #expect(error.rule.id == id)
            #expect(error.payloadOffset == 99)
            #expect(error.description.contains("at byte 99 of the Payload"))
            #expect(error.description.contains("rebuild the package"))
        }
    }

    @Test func everySingleByteChangeEndsInAnErrorOrTheContentNeverACrash() throws {
        let raw = try Self.rawCpio()
        let good = try Self.assemble(raw, chunkSize: 700, stored: [1])
        for position in stride(from: 0, to: good.count, by: 7) {
            for flip: UInt8 in [0x01, 0x80, 0xff] {
                var bytes = good
                bytes[position] ^= flip
                _ = Support.firstError(bytes, maxDecodedBytes: 1 << 20)
            }
        }
        for cut in stride(from: 0, to: good.count, by: 13) {
            #expect(Support.firstError(Array(good.prefix(cut)), maxDecodedBytes: 1 << 20) != nil)
        }
    }
}
