import Foundation
import PayloadKit
import Testing

/// A Payload with more entries than odc's six-digit inode field numbers (262,143): 1,000,000 files
/// of 2 KiB fit the 2 GiB package cap, and the product layout must build and read them.
@Suite struct ManyEntriesPayloadTests {
    private typealias Support = PayloadTestSupport

    /// 262,143 numbered entries, then 7 more, the last a file with data.
    private static let entryCount = 262_150

    private static func payload() throws -> [UInt8] {
        final class Box { var bytes: [UInt8] = [] }
        let box = Box()
        let writer = try PayloadWriter(level: 1) { box.bytes.append(contentsOf: $0) }
        try writer.addDirectory(path: ".", mode: 0o755, modificationTime: 0)
        for index in 1..<entryCount - 1 {
            try writer.addFile(path: "./f\(index)", mode: 0o644, modificationTime: 0, size: 0) { _ in }
        }
        let last = Array("last\n".utf8)
        try writer.addFile(path: "./last", mode: 0o644, modificationTime: 0, size: UInt64(last.count)) { write in
            try last.withUnsafeBytes { try write($0) }
        }
        try writer.finish()
        return box.bytes
    }

    @Test func entriesPastTheInodeFieldAreWrittenAndReadBack() throws {
        let bytes = try Self.payload()
        let reader = try PayloadReader(maxDecodedBytes: 1 << 30, source: Support.source(bytes, chunk: 1 << 20))
        var count = 0
        var lastPath = ""
        var lastData: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while let entry = try reader.nextEntry() {
            count += 1
            lastPath = entry.path
            lastData = []
            while true {
                let got = try buffer.withUnsafeMutableBytes { try reader.readData(into: $0) }
                if got == 0 { break }
                lastData += buffer[0..<got]
            }
        }
        #expect(count == Self.entryCount)
        #expect(lastPath == "./last")
        #expect(lastData == Array("last\n".utf8))

        // bsdtar (libarchive) lists every entry too.
        let directory = try Support.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("Payload").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let listed = try Support.run("bsdtar -tf \(Support.shellQuoted(path)) | wc -l")
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "\(Self.entryCount)")
        let gnu = try Support.run("gzip -dc \(Support.shellQuoted(path)) | cpio -it --quiet | tail -n 1")
        #expect(gnu.status == 0, "\(gnu.stderr)")
        #expect(gnu.stdout == "./last\n")
    }
}
