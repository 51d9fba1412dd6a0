import Foundation
import IAPCompression
import IAPTestSupport
import PayloadKit

/// One entry as read back, with its data.
struct ReadEntry: Equatable {
    var entry: PayloadEntry
    var data: [UInt8]
}

/// Helpers shared by the payload tests.
enum PayloadTestSupport {
    /// A source closure over an in-memory byte array, handing out at most `chunk` bytes per call.
    static func source(_ bytes: [UInt8], chunk: Int = 1000) -> (UnsafeMutableRawBufferPointer) throws -> Int {
        var offset = 0
        return { buffer in
            let count = min(buffer.count, chunk, bytes.count - offset)
            bytes.withUnsafeBytes { all in
                buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: all[offset..<offset + count]))
            }
            offset += count
            return count
        }
    }

    /// Reads every entry and its data from a gzip'd payload held in memory (with a head-only reader
    /// if `headOnly`, decoding on a thread of its own if `decodingAhead`).
    static func readAll(
        _ payload: [UInt8], maxDecodedBytes: UInt64 = 64 << 20, headOnly: Bool = false, decodingAhead: Bool = false
    ) throws -> [ReadEntry] {
        let reader = try PayloadReader(
            maxDecodedBytes: maxDecodedBytes, headOnly: headOnly, decodingAhead: decodingAhead,
            source: source(payload))
        var result: [ReadEntry] = []
        var buffer = [UInt8](repeating: 0, count: 333)
        while let entry = try reader.nextEntry() {
            var data: [UInt8] = []
            while true {
                let count = try buffer.withUnsafeMutableBytes { try reader.readData(into: $0) }
                if count == 0 { break }
                data += buffer[0..<count]
            }
            result.append(ReadEntry(entry: entry, data: data))
        }
        return result
    }

    /// Reads every entry, returning the error that stopped the reader (nil if none did).
    static func firstError(_ payload: [UInt8], maxDecodedBytes: UInt64 = 64 << 20, decodingAhead: Bool = false)
        -> PayloadError?
    {
        do {
            _ = try readAll(payload, maxDecodedBytes: maxDecodedBytes, decodingAhead: decodingAhead)
            return nil
        } catch let error as PayloadError {
            return error
        } catch {
            return .inputFailed("unexpected error type: \(error)")
        }
    }

    /// Pipes `bytes` through a shell command (a system compressor or decompressor).
    static func filter(_ bytes: [UInt8], _ command: String) throws -> [UInt8] {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(bytes).write(to: directory.appendingPathComponent("in"))
        let result = try run("\(command) < in > out", in: directory)
        guard result.status == 0 else { throw CommandFailed(command: command, stderr: result.stderr) }
        return Array(try Data(contentsOf: directory.appendingPathComponent("out")))
    }

    /// A shell command that exited with a failure.
    struct CommandFailed: Error {
        var command: String
        var stderr: String
    }

    /// Gzips raw cpio bytes the way an ordinary tool would (one member).
    static func gzip(_ raw: [UInt8]) throws -> [UInt8] {
        try Deflater.compress(raw, format: .gzip)
    }

    /// A fresh empty directory under the system temporary folder.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("payloadkit-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Runs `command` with /bin/sh in `directory`; its exit status and output.
    static func run(_ command: String, in directory: URL? = nil) throws -> Harness.Result {
        try Harness.shell(command, in: directory?.path)
    }

    /// Quotes `text` for /bin/sh.
    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
