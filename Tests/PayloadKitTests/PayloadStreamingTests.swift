import Foundation
import IAPCrypto
import IAPSystem
import IAPTestSupport
import PayloadKit
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A large file goes through writer and reader in fixed-size pieces, never whole in memory.
@Suite struct PayloadStreamingTests {
    static let fileSize: UInt64 = 100 << 20
    static let chunkSize = 64 * 1024

    /// Peak resident memory of this process so far, in bytes.
    private func peakResidentBytes() -> UInt64 {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return UInt64(usage.ru_maxrss) * 1024
    }

    /// 16 KiB of pseudo-random bytes repeated, with each 64 KiB chunk stamped with its index so
    /// reordered, dropped or repeated chunks change the digest.
    private func fillChunk(_ chunk: inout [UInt8], base: [UInt8], index: UInt64) {
        for copy in 0..<4 { chunk.replaceSubrange(copy * base.count..<(copy + 1) * base.count, with: base) }
        withUnsafeBytes(of: index.bigEndian) { chunk.replaceSubrange(0..<8, with: $0) }
    }

    @Test func aHundredMiBFileStreamsThroughInSmallMemory() throws {
        let directory = try PayloadTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("Payload").path
        var state: UInt32 = 12345
        let base: [UInt8] = (0..<16_384).map { _ in
            state = state &* 1_103_515_245 &+ 12345
            return UInt8(truncatingIfNeeded: state >> 16)
        }
        let memoryBefore = peakResidentBytes()

        let written = DigestHasher(.sha256)
        do {
            let file = try FileDescriptor.createExclusive(path)
            let writer = try PayloadWriter(level: 1) { try file.write($0) }
            try writer.addDirectory(path: ".", mode: 0o755, modificationTime: 1)
            try writer.addFile(path: "./Contents/big.bin", mode: 0o644, modificationTime: 1, size: Self.fileSize) {
                write in
                var chunk = [UInt8](repeating: 0, count: Self.chunkSize)
                for index in 0..<(Self.fileSize / UInt64(Self.chunkSize)) {
                    fillChunk(&chunk, base: base, index: index)
                    written.update(chunk)
                    try chunk.withUnsafeBytes { try write($0) }
                }
            }
            try writer.finish()
        }
        let compressedSize = try FileDescriptor.openForReading(path).size()
        #expect(compressedSize > 1 << 20)
        #expect(compressedSize < Self.fileSize)

        let file = try FileDescriptor.openForReading(path)
        let reader = try PayloadReader(maxDecodedBytes: Self.fileSize + (1 << 20)) { try file.readSequential(into: $0) }
        #expect(try reader.nextEntry()?.path == ".")
        let entry = try #require(try reader.nextEntry())
        #expect(entry.path == "./Contents/big.bin")
        #expect(entry.size == Self.fileSize)
        let read = DigestHasher(.sha256)
        var total: UInt64 = 0
        var buffer = [UInt8](repeating: 0, count: 100_000)
        while true {
            let count = try buffer.withUnsafeMutableBytes { try reader.readData(into: $0) }
            if count == 0 { break }
            buffer.withUnsafeBytes { read.update(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            total += UInt64(count)
        }
        #expect(try reader.nextEntry() == nil)
        #expect(total == Self.fileSize)
        #expect(read.finish() == written.finish())

        // Holding the file (or its compressed form) in memory would add at least 100 MiB.
        let growth = peakResidentBytes() - memoryBefore
        if !Sanitizer.distortsMemory { #expect(growth < 48 << 20, "peak memory grew by \(growth >> 20) MiB") }
    }
}
