import Foundation
import IAPTestSupport

/// Compresses bytes with a system tool (bzip2, xz, gzip), so no test trusts our own encoder.
enum SystemCompressor {
    /// The output of `/bin/sh -c "<command> < input"`, e.g. `bzip2 -9 -c` or `xz --format=lzma -c`.
    static func compress(_ bytes: [UInt8], with command: String) throws -> [UInt8] {
        let directory = ScratchFolder()
        let input = try directory.write(bytes, to: "input")
        let output = directory.path + "/output"
        _ = try run("/bin/sh", ["-c", "\(command) < '\(input)' > '\(output)'"])
        return try directory.read("output")
    }

    /// Deterministic bytes that compress to about half: runs of text and pseudo-random noise.
    static func sample(count: Int, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) -> [UInt8] {
        var state = seed
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        let text = Array("The quick brown fox jumps over the lazy dog. ".utf8)
        while bytes.count < count {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            if state >> 63 == 0 {
                bytes += text.prefix(Int(state >> 32) % text.count + 1)
            } else {
                bytes.append(UInt8(truncatingIfNeeded: state >> 40))
            }
        }
        return Array(bytes.prefix(count))
    }
}
