/// A SHA-256 held as 32 bytes in place (no array, no 64-character string per file).
struct SHA256Value: Equatable {
    private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    /// The first 32 bytes of `digest` (zero-padded if shorter).
    init(_ digest: [UInt8]) {
        withUnsafeMutableBytes(of: &words) { out in
            digest.withUnsafeBytes { out.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0.prefix(32))) }
        }
    }

    /// Appends the 64 lower-case hex digits.
    func appendHex(to out: inout [UInt8]) {
        withUnsafeBytes(of: words) { bytes in
            for byte in bytes {
                out.append(Self.digits[Int(byte >> 4)])
                out.append(Self.digits[Int(byte & 0xF)])
            }
        }
    }

    /// The 32 bytes.
    var bytes: [UInt8] { withUnsafeBytes(of: words) { Array($0) } }

    /// The 64 lower-case hex digits.
    var hex: String {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        appendHex(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    static func == (a: SHA256Value, b: SHA256Value) -> Bool {
        a.words.0 == b.words.0 && a.words.1 == b.words.1 && a.words.2 == b.words.2 && a.words.3 == b.words.3
    }

    private static let digits: [UInt8] = Array("0123456789abcdef".utf8)
}
