import Foundation
import IAPCompression
import IAPTestSupport
import Testing

/// Each codec's decoder, fed bytes the system tools made: exact output, and the stream's end found
/// exactly (the bytes after it are left unconsumed, so a caller can call them junk).
@Suite struct StreamDecoderTests {
    /// `bytes` through a shell command such as `bzip2 -c`.
    private func compress(_ bytes: [UInt8], _ command: String) throws -> [UInt8] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iapcore-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(bytes).write(to: folder.appendingPathComponent("in"))
        let result = try Harness.shell("\(command) < in > out", in: folder.path)
        #expect(result.status == 0, "\(command)")
        return Array(try Data(contentsOf: folder.appendingPathComponent("out")))
    }

    static let cases: [(codec: StreamCodec, command: String)] = [
        (.gzip, "gzip -c"), (.bzip2, "bzip2 -c"), (.lzma, "xz --format=lzma -c"), (.lzma, "xz -c"), (.xz, "xz -c"),
    ]

    @Test(arguments: cases.indices)
    func decodesAndStopsExactlyAtTheEnd(_ index: Int) throws {
        let (codec, command) = Self.cases[index]
        let original = (0..<200_000).map { UInt8(truncatingIfNeeded: ($0 * 31) ^ ($0 >> 7)) }
        let compressed = try compress(original, command)
        let input = compressed + Array("JUNK".utf8)
        let decoder = try codec.makeDecoder()
        var output: [UInt8] = []
        var position = 0
        var chunk = [UInt8](repeating: 0, count: 4096)
        while !decoder.finished {
            let step = try input.withUnsafeBytes { all in
                try chunk.withUnsafeMutableBytes { target in
                    try decoder.decode(
                        UnsafeRawBufferPointer(rebasing: all[position..<min(all.count, position + 1000)]), into: target)
                }
            }
            position += step.consumed
            output += chunk[0..<step.produced]
            if step.consumed == 0 && step.produced == 0 { break }
        }
        #expect(decoder.finished, "\(codec)")
        #expect(output == original, "\(codec)")
        #expect(position == compressed.count, "\(codec)")
        #expect(decoder.totalIn == UInt64(compressed.count))
        #expect(decoder.totalOut == UInt64(original.count))
    }

    @Test(arguments: [StreamCodec.bzip2, .lzma, .xz])
    func garbageIsAnErrorWithItsOffset(_ codec: StreamCodec) throws {
        let decoder = try codec.makeDecoder()
        let garbage = [UInt8](repeating: 0xEE, count: 64)
        var out = [UInt8](repeating: 0, count: 1024)
        #expect(throws: DecompressionError.self) {
            _ = try garbage.withUnsafeBytes { input in
                try out.withUnsafeMutableBytes { try decoder.decode(input, into: $0) }
            }
        }
    }
}
