import Foundation
import IAPCrypto
import IAPSystem
import IAPTestSupport
import XarKit

/// A small package-shaped tree written with `XarWriter`: directories, zlib and stored files, a symlink.
enum SampleTree {
    static let time = "2024-05-06T07:08:09Z"
    static let distribution = Array("<?xml version=\"1.0\"?><installer-gui-script/>\n".utf8)
    static let payload = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    static let bom = [UInt8](repeating: 0x42, count: 3000)

    /// Writes the sample archive to `path`; `checksum` picks the digest; with `inPlaceRoom`, the heap
    /// is written straight into the output after that many reserved bytes.
    static func write(
        to path: String, in directory: ScratchFolder, checksum: DigestAlgorithm = .sha1,
        inPlaceRoom: Int? = nil
    ) throws {
        let options = XarWriterOptions(checksum: checksum, creationTime: time)
        let output = try FileDescriptor.createExclusive(path, readable: true)
        let writer =
            try inPlaceRoom.map { try XarWriter(directTo: output, reservedBytes: $0, options: options) }
            ?? XarWriter(temporaryDirectory: directory.path, options: options)
        try writer.addFile(path: "Distribution", mtime: time, encoding: .zlib) { write in
            try distribution.withUnsafeBytes { try write($0) }
        }
        try writer.addDirectory(path: "payload.pkg", mtime: time)
        try writer.addFile(path: "payload.pkg/Bom", mtime: time, encoding: .zlib) { write in
            try bom.withUnsafeBytes { try write($0) }
        }
        try writer.addFile(path: "payload.pkg/Payload", mtime: time, encoding: .stored) { write in
            // In uneven pieces, to exercise the streaming path.
            var offset = 0
            while offset < payload.count {
                let end = min(payload.count, offset + 7_777)
                try payload[offset..<end].withUnsafeBytes { try write($0) }
                offset = end
            }
        }
        try writer.addFile(path: "payload.pkg/Empty", mtime: time, encoding: .zlib) { _ in }
        try writer.addSymlink(path: "payload.pkg/Link", target: "Bom", mtime: time)
        if inPlaceRoom != nil { try writer.finishInPlace() } else { try writer.finish(to: output) }
    }
}

/// Runs a tool and returns its standard output; fails on a non-zero exit.
func run(_ tool: String, _ arguments: [String]) throws -> String {
    let result = try Harness.run([tool] + arguments)
    guard result.status == 0 else {
        throw XarError(rule: nil, "\(tool) \(arguments) failed: \(result.stderr)", advice: "")
    }
    return result.stdout
}

/// The bsdtar binary, when installed.
let bsdtarPath: String? = ["/usr/bin/bsdtar", "/bin/bsdtar"].first { FileManager.default.isExecutableFile(atPath: $0) }
