import IAPSystem
import IAPTestSupport
import Testing
import XarKit

/// Thousands of truncated and bit-flipped variants of a valid archive: open and read must return or throw.
@Suite struct XarCorruptionTests {
    let directory: ScratchFolder
    init() throws { directory = ScratchFolder() }

    /// Opens and fully reads `bytes`; returns how it ended, never crashes or hangs.
    private func exercise(_ bytes: [UInt8]) throws -> String {
        let path = try directory.write(bytes, to: "variant.xar")
        do {
            let archive = try XarArchive.open(path: path, limits: XarLimits(maxTOCBytes: 1 << 20))
            for file in archive.toc.files {
                _ = try? archive.readAll(file, maxBytes: 1 << 20)
            }
            _ = archive.verifyAllData()
            return archive.findings.isEmpty ? "clean" : "findings"
        } catch {
            return error.rule?.id ?? "io"
        }
    }

    @Test func truncationsAndBitFlipsNeverCrash() throws {
        let writer = try XarWriter(
            temporaryDirectory: directory.path, options: XarWriterOptions(creationTime: SampleTree.time))
        try writer.addDirectory(path: "d", mtime: SampleTree.time)
        try writer.addFile(path: "d/z", mtime: SampleTree.time, encoding: .zlib) { write in
            try Array(repeating: UInt8(ascii: "z"), count: 500).withUnsafeBytes { try write($0) }
        }
        try writer.addFile(path: "d/s", mtime: SampleTree.time, encoding: .stored) { write in
            try Array("stored bytes".utf8).withUnsafeBytes { try write($0) }
        }
        try writer.addSymlink(path: "d/l", target: "z", mtime: SampleTree.time)
        try writer.finish(to: try FileDescriptor.createExclusive(directory.path + "/base.xar"))
        let base = try directory.read("base.xar")
        #expect(try exercise(base) == "clean")

        var outcomes: [String: Int] = [:]
        var variants = 0
        for length in 0..<base.count {
            outcomes[try exercise(Array(base.prefix(length))), default: 0] += 1
            variants += 1
        }
        for index in base.indices {
            for mask: UInt8 in [0x01, 0x80] {
                var flipped = base
                flipped[index] ^= mask
                outcomes[try exercise(flipped), default: 0] += 1
                variants += 1
            }
        }
        var generator = SeededGenerator(seed: 0x5eed)
        for _ in 0..<500 {
            var mangled = base
            for _ in 0..<4 {
                let index = Int(generator.next() % UInt64(mangled.count))
                mangled[index] = UInt8(truncatingIfNeeded: generator.next())
            }
            outcomes[try exercise(mangled), default: 0] += 1
            variants += 1
        }
        #expect(variants > 2000)
        // Every truncation is caught, and flips are caught one way or another.
        #expect(outcomes["clean", default: 0] < variants / 10)
        #expect(outcomes["xar-magic", default: 0] > 0)
        #expect(outcomes["xar-toc-inflate", default: 0] + outcomes["xar-toc-length", default: 0] > 0)
        #expect(outcomes["findings", default: 0] > 0)
    }
}
