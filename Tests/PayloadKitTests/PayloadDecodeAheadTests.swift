import Foundation
import IAPSystem
import IAPTestSupport
import PayloadKit
import Testing

/// A reader decoding on a thread of its own (what validate and unpack use) gives the same entries,
/// or stops with the same error, as one decoding as it parses; and once gone it reads no more.
@Suite struct PayloadDecodeAheadTests {
    private typealias Support = PayloadTestSupport

    /// Whole and damaged payloads: several 1 MiB members, the sample tree, cut short, junk after
    /// the stream, NUL padding then data after the trailer, not compressed, a cap too small.
    static func cases() throws -> [(name: String, bytes: [UInt8], cap: UInt64)] {
        let members = try PayloadHeadOnlyTests.payload()
        let sample = try SampleContent.payload()
        var afterTrailer = OdcBuilder()
        afterTrailer.add(".", mode: 0o040755, ino: 1, nlink: 2)
        afterTrailer.addTrailer()
        return [
            ("members", members, 64 << 20),
            ("sample", sample, 64 << 20),
            ("cut short", Array(members.prefix(members.count - 70_000)), 64 << 20),
            ("junk after", members + Array("junk".utf8), 64 << 20),
            ("data after the trailer", try Support.gzip(afterTrailer.bytes + [0, 0, 0, 7]), 64 << 20),
            ("not compressed", afterTrailer.bytes, 64 << 20),
            ("over the cap", members, 2 << 20),
        ]
    }

    @Test func sameEntriesOrSameError() throws {
        for (name, bytes, cap) in try Self.cases() {
            let inline = Result { try Support.readAll(bytes, maxDecodedBytes: cap) }
            let ahead = Result { try Support.readAll(bytes, maxDecodedBytes: cap, decodingAhead: true) }
            switch (inline, ahead) {
            case (.success(let one), .success(let other)):
                #expect(one == other, "\(name)")
                #expect(!one.isEmpty, "\(name)")
            case (.failure(let one), .failure(let other)):
                #expect(one as? PayloadError == other as? PayloadError, "\(name): \(one) / \(other)")
            default:
                Issue.record("\(name): \(inline) / \(ahead)")
            }
        }
        #expect(Support.firstError(try Self.cases()[2].bytes, decodingAhead: true) != nil)
    }

    /// A Payload holding `./Contents/big.bin`, `size` bytes of seeded noise, written to a file in
    /// pieces (the process keeps no copy of it: memory tests run beside this one); its path and size.
    static func payloadFile(size: Int, in scratch: ScratchFolder) throws -> (path: String, size: Int) {
        let path = scratch.at("payload")
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        let writer = try PayloadWriter(level: 6, workers: 2) { handle.write(Data($0)) }
        try writer.addDirectory(path: ".", mode: 0o755, modificationTime: 1)
        var generator = SeededGenerator(seed: 16)
        var piece = [UInt8](repeating: 0, count: 64 << 10)
        try writer.addFile(path: "./Contents/big.bin", mode: 0o644, modificationTime: 1, size: UInt64(size)) {
            write in
            for _ in 0..<(size / piece.count) {
                piece.withUnsafeMutableBytes { bytes in
                    for word in 0..<(bytes.count / 8) {
                        bytes.storeBytes(of: generator.next(), toByteOffset: word * 8, as: UInt64.self)
                    }
                }
                try piece.withUnsafeBytes { try write($0) }
            }
        }
        try writer.finish()
        return (path, Int(try FileManager.default.attributesOfItem(atPath: path)[.size] as? UInt64 ?? 0))
    }

    @Test func aReaderLeftEarlyStopsReading() throws {
        // 16 MiB in 1 MiB members: more than the blocks in flight can hold (each may take a whole
        // member), so the decoding thread cannot have read it all by the time the reader goes.
        let scratch = ScratchFolder()
        let payload = try Self.payloadFile(size: 16 << 20, in: scratch)
        let file = try #require(FileHandle(forReadingAtPath: payload.path))
        defer { try? file.close() }
        let consumed = Locked(0)
        do {
            let reader = try PayloadReader(maxDecodedBytes: 64 << 20, decodingAhead: true) { buffer in
                let n = read(file.fileDescriptor, buffer.baseAddress, min(buffer.count, 64 << 10))
                guard n >= 0 else { throw PayloadError.inputFailed("read") }
                consumed.withLock { $0 += n }
                return n
            }
            #expect(try reader.nextEntry()?.path == ".")
        }
        let after = consumed.withLock { $0 }
        #expect(after < payload.size, "it read \(after) of \(payload.size) bytes")
        Thread.sleep(forTimeInterval: 0.05)
        #expect(consumed.withLock { $0 } == after)
    }
}
