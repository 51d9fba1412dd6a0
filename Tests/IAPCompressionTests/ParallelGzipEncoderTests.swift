import Foundation
import IAPTestSupport
import Testing

@testable import IAPCompression

@Suite struct ParallelGzipEncoderTests {
    /// 5.5 MiB: text-like blocks, random blocks, and random data repeating every 16 KiB.
    static let input: [UInt8] = {
        var generator = SeededGenerator(seed: 42)
        let words = Array("level score chapter rocket page image sound track the of and ".utf8)
        var bytes: [UInt8] = []
        while bytes.count < 2 << 20 { bytes.append(words[Int(generator.next() % UInt64(words.count))]) }
        bytes += (0..<(2 << 20)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        let period = (0..<(16 << 10)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        for i in 0..<(3 << 19) { bytes.append(period[i % period.count]) }
        return bytes
    }()

    func encode(_ bytes: [UInt8], workers: Int, level: Int32 = 7) throws -> [UInt8] {
        var out: [UInt8] = []
        let encoder = ParallelGzipEncoder(level: level, workers: workers) { out.append(contentsOf: $0) }
        var offset = 0
        var step = 1000
        while offset < bytes.count {
            let end = min(bytes.count, offset + step)
            try bytes[offset..<end].withUnsafeBytes { try encoder.write($0) }
            offset = end
            step = step * 3 % 700_001 + 1
        }
        try encoder.finish()
        return out
    }

    func decode(_ gzip: [UInt8]) throws -> [UInt8] {
        var out: [UInt8] = []
        var rest = gzip[...]
        while !rest.isEmpty {
            let inflater = Inflater(format: .gzip)
            let used = try Array(rest).withUnsafeBytes { try inflater.decompress($0) { out.append(contentsOf: $0) } }
            #expect(inflater.finished)
            rest = rest.dropFirst(used)
        }
        return out
    }

    @Test func sameBytesWhateverTheThreads() throws {
        let one = try encode(Self.input, workers: 1)
        #expect(try encode(Self.input, workers: 2) == one)
        #expect(try encode(Self.input, workers: 4) == one)
        #expect(try decode(one) == Self.input)
    }

    @Test func storesRandomBlocksAndCompressesTheRest() throws {
        let text = Array(Self.input[0..<(2 << 20)])
        let random = Array(Self.input[(2 << 20)..<(4 << 20)])
        let periodic = Array(Self.input[(4 << 20)...])
        #expect(try encode(text, workers: 2).count < text.count * 6 / 10)
        // Stored: a few bytes of framing per block, never squeezed larger by deflate.
        let stored = try encode(random, workers: 2).count
        #expect(stored > random.count && stored < random.count + 1024)
        // Random data repeating every 16 KiB is not mistaken for incompressible.
        #expect(try encode(periodic, workers: 2).count < periodic.count / 20)
    }

    @Test func gzipAcceptsIt() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("pge-\(UUID().uuidString).gz")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(try encode(Self.input, workers: 2)).write(to: url)
        let process = try Process.run(URL(fileURLWithPath: "/bin/gzip"), arguments: ["-t", url.path])
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    @Test func emptyInputIsOneEmptyMember() throws {
        let out = try encode([], workers: 2)
        #expect(out.count > 0)
        #expect(try decode(out).isEmpty)
    }
}
