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

    @Test func aReaderLeftEarlyStopsReading() throws {
        let payload = try PayloadHeadOnlyTests.payload()
        let feed = Support.source(payload, chunk: 64 << 10)
        let consumed = ConditionLock()
        nonisolated(unsafe) var count = 0
        do {
            let reader = try PayloadReader(maxDecodedBytes: 64 << 20, decodingAhead: true) { buffer in
                let n = try feed(buffer)
                consumed.withLock { count += n }
                return n
            }
            #expect(try reader.nextEntry()?.path == ".")
        }
        let after = consumed.withLock { count }
        #expect(after < payload.count, "it read \(after) of \(payload.count) bytes")
        Thread.sleep(forTimeInterval: 0.05)
        #expect(consumed.withLock { count } == after)
    }
}
