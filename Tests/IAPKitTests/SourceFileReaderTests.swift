import Foundation
import Testing

@testable import IAPKit

/// A content file is streamed whole, in order, and refused when its size is no longer the scanned
/// one: small files (read in one piece, into a buffer their size and a byte) as large ones.
@Suite struct SourceFileReaderTests {
    /// Writes `count` pseudo-random bytes to a fresh file; returns its path and bytes.
    func file(_ count: Int) throws -> (String, [UInt8]) {
        var state: UInt32 = 7
        let bytes: [UInt8] = (0..<count).map { _ in
            state = state &* 1_103_515_245 &+ 12345
            return UInt8(truncatingIfNeeded: state >> 16)
        }
        let path = NSTemporaryDirectory() + "source-reader-\(UUID().uuidString)"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return (path, bytes)
    }

    @Test(arguments: [0, 1, 4096, SourceFileReader.chunkSize - 1, SourceFileReader.chunkSize, 3 << 20])
    func streamsTheScannedSizeAndRefusesAnyOther(count: Int) throws {
        let (path, bytes) = try file(count)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var read: [UInt8] = []
        try SourceFileReader.stream(path, expectedSize: UInt64(count)) { read += $0 }
        #expect(read == bytes)
        // Grown since the scan (the scan saw one byte less), or shrunk (one byte more).
        if count > 0 {
            #expect(throws: (any Error).self) {
                try SourceFileReader.stream(path, expectedSize: UInt64(count - 1)) { _ in }
            }
        }
        #expect(throws: (any Error).self) {
            try SourceFileReader.stream(path, expectedSize: UInt64(count + 1)) { _ in }
        }
    }
}
