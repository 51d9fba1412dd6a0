internal import BomKit
internal import IAPCompression
internal import PayloadKit

/// The two binary parts of a product archive's component: the Bom and the Payload.
enum ComponentTargets {
    /// Decoded Payload bytes allowed per input: enough for any seed, small enough to stay fast.
    static let maxDecodedBytes: UInt64 = 16 << 20

    /// A Bom through `BomReader.read`.
    static func readBom(_ input: [UInt8]) {
        _ = try? BomReader.read(input)
    }

    /// A Payload through `PayloadReader`: every entry's header, and the data of every other entry
    /// (the rest are skipped, as a reader that only lists does). Input that does not start with a
    /// gzip, bzip2, xz or pbzx magic is taken as raw cpio and gzip'd first, so the cpio parser is reached.
    static func readPayload(_ input: [UInt8]) {
        var bytes = input
        let magics: [[UInt8]] = [
            [0x1f, 0x8b], Array("BZh".utf8), [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], Array("pbzx".utf8),
        ]
        if !magics.contains(where: { input.starts(with: $0) }) {
            bytes = (try? Deflater.compress(input, format: .gzip, level: 1)) ?? []
        }
        var position = 0
        let source: (UnsafeMutableRawBufferPointer) throws -> Int = { buffer in
            let count = min(buffer.count, bytes.count - position)
            bytes.withUnsafeBytes {
                buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[position..<position + count]))
            }
            position += count
            return count
        }
        guard let reader = try? PayloadReader(maxDecodedBytes: maxDecodedBytes, source: source) else { return }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 16)
        defer { buffer.deallocate() }
        var index = 0
        while let entry = try? reader.nextEntry() {
            if index % 2 == 0 && entry.size > 0 {
                while let count = try? reader.readData(into: buffer), count > 0 {}
            }
            index += 1
        }
    }
}
