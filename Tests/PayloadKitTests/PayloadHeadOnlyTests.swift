import PayloadKit
import Testing

/// A head-only reader (what `iapkg inspect` uses) decodes the same entries as the default reader,
/// but reaches the first ones having read only a little of a payload of several 1 MiB gzip members.
@Suite struct PayloadHeadOnlyTests {
    static let bigSize = 4 << 20
    static let plist = Array("<plist><dict/></plist>\n".utf8)

    /// ".", a small ContentInfo.plist, then 4 MiB of bytes that do not compress (stored members).
    static func payload() throws -> [UInt8] {
        var output: [UInt8] = []
        let writer = try PayloadWriter(level: 6, workers: 2) { output += $0 }
        try writer.addDirectory(path: ".", mode: 0o755, modificationTime: 1)
        try writer.addFile(path: "./ContentInfo.plist", mode: 0o644, modificationTime: 1, size: UInt64(plist.count)) {
            write in try plist.withUnsafeBytes { try write($0) }
        }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let big: [UInt8] = (0..<bigSize).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
        try writer.addFile(path: "./Contents/big.bin", mode: 0o644, modificationTime: 1, size: UInt64(bigSize)) {
            write in try big.withUnsafeBytes { try write($0) }
        }
        try writer.finish()
        return output
    }

    /// Reads the first two entries and the plist's bytes; returns them with the compressed bytes consumed.
    static func head(_ payload: [UInt8], headOnly: Bool) throws -> (paths: [String], plist: [UInt8], consumed: Int) {
        let feed = PayloadTestSupport.source(payload, chunk: 64 << 10)
        var consumed = 0
        let reader = try PayloadReader(maxDecodedBytes: 64 << 20, headOnly: headOnly) { buffer in
            let n = try feed(buffer)
            consumed += n
            return n
        }
        var paths: [String] = []
        for _ in 0..<2 { paths.append(try #require(try reader.nextEntry()).path) }
        var bytes = [UInt8](repeating: 0, count: 4096)
        let n = try bytes.withUnsafeMutableBytes { try reader.readData(into: $0) }
        return (paths, Array(bytes[0..<n]), consumed)
    }

    @Test func theHeadIsReachedReadingLittleOfThePayload() throws {
        let payload = try Self.payload()
        #expect(payload.count > Self.bigSize)
        let whole = try Self.head(payload, headOnly: false)
        let headOnly = try Self.head(payload, headOnly: true)
        #expect(headOnly.paths == [".", "./ContentInfo.plist"])
        #expect(headOnly.plist == Self.plist)
        #expect(whole.paths == headOnly.paths && whole.plist == headOnly.plist)
        // The default reader decodes a whole 1 MiB member at once (after reading up to 2 MiB).
        #expect(whole.consumed >= 1 << 20)
        #expect(headOnly.consumed <= 256 << 10, "read \(headOnly.consumed) bytes for the head")
    }

    @Test func readToTheEndItGivesWhatTheDefaultReaderGives() throws {
        let payload = try Self.payload()
        let expected = try PayloadTestSupport.readAll(payload)
        #expect(expected.count == 3)
        #expect(try PayloadTestSupport.readAll(payload, headOnly: true) == expected)
    }
}
