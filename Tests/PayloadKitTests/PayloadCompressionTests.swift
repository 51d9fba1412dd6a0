import Foundation
import IAPSystem
import IAPTestSupport
import PayloadKit
import Testing

/// Payloads compressed with bzip2 or xz (by the system tools) read like gzip ones; anything else is
/// refused with an error naming what the Payload starts with.
@Suite struct PayloadCompressionTests {
    private typealias Support = PayloadTestSupport

    /// The raw cpio of the sample content (gunzipped by the system gzip).
    private func rawCpio() throws -> [UInt8] { try Support.filter(try SampleContent.payload(), "gzip -dc") }

    static let formats: [(name: String, command: String)] = [("bzip2", "bzip2 -9 -c"), ("xz", "xz -c")]

    @Test(arguments: formats.map(\.name))
    func aPayloadCompressedWithTheSystemToolReads(_ format: String) throws {
        let command = try #require(Self.formats.first { $0.name == format }?.command)
        let expected = try Support.readAll(try SampleContent.payload())
        #expect(try Support.readAll(try Support.filter(try rawCpio(), command)) == expected)
        // Several streams one after the other, as parallel compressors write them.
        let raw = try rawCpio()
        let split = raw.count / 3
        let concatenated =
            try Support.filter(Array(raw.prefix(split)), command) + Support.filter(Array(raw.dropFirst(split)), command)
        #expect(try Support.readAll(concatenated) == expected)
    }

    @Test(arguments: formats.map(\.name))
    func junkTruncationAndCorruptionAreRefused(_ format: String) throws {
        let command = try #require(Self.formats.first { $0.name == format }?.command)
        let payload = try Support.filter(try rawCpio(), command)
        #expect(
            Support.firstError(payload + Array("JUNK".utf8))
                == .junkAfterCompressed(format: format, offset: UInt64(payload.count)))
        for cut in [payload.count - 1, payload.count / 2, 8] {
            let error = Support.firstError(Array(payload.prefix(cut)))
            switch error {
            case .truncatedCompressed(format, UInt64(cut))?, .corruptCompressed(format, _, _)?: break
            default: Issue.record("cut at \(cut): \(String(describing: error))")
            }
        }
        var garbled = payload
        garbled[garbled.count / 2] ^= 0x55
        guard case .corruptCompressed(format, let offset, _)? = Support.firstError(garbled) else {
            Issue.record("expected corrupt \(format) data, got \(String(describing: Support.firstError(garbled)))")
            return
        }
        #expect(offset <= UInt64(payload.count))
    }

    @Test(arguments: formats.map(\.name))
    func theCapOnDecodedBytesHolds(_ format: String) throws {
        let command = try #require(Self.formats.first { $0.name == format }?.command)
        var builder = OdcBuilder()
        builder.add(".", mode: 0o040755, ino: 1, nlink: 2)
        builder.add("./Contents/zeros", mode: 0o100644, data: [UInt8](repeating: 0, count: 3_000_000), ino: 2)
        builder.addTrailer()
        let payload = try Support.filter(builder.bytes, command)
        let limit: UInt64 = 100_000
        guard case .decompressionBomb(limit, _)? = Support.firstError(payload, maxDecodedBytes: limit) else {
            Issue.record(
                "expected a bomb error, got \(String(describing: Support.firstError(payload, maxDecodedBytes: limit)))")
            return
        }
    }

    @Test func otherCompressionsAreNamed() throws {
        let zstd: [UInt8] = [0x28, 0xb5, 0x2f, 0xfd, 0x04, 0x58, 0x99, 0x99]
        let error = Support.firstError(zstd)
        #expect(error == .unrecognizedCompression(leadingBytes: Array(zstd.prefix(6))))
        let text = error.map(String.init(describing:)) ?? ""
        #expect(text.contains("28 b5 2f fd 04 58 (zstd?)"), "\(text)")
        #expect(text.contains("gzip"))
        let cpio = String(describing: PayloadError.unrecognizedCompression(leadingBytes: Array("070707".utf8)))
        #expect(cpio.contains("uncompressed cpio odc archive"), "\(cpio)")
        let lone = Support.firstError([0x1f])
        #expect(lone == .unrecognizedCompression(leadingBytes: [0x1f]))
    }
}
