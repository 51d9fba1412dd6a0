#if canImport(Glibc)
    import Glibc
#endif

/// A number with a fixed count of decimals, exactly as `printf("%.Nf")` writes it (C's own
/// rounding of the binary value), for programs without Foundation's `String(format:)`.
package enum FixedPoint {
    package static func text(_ value: Double, places: Int) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        let written = withVaList([Int32(clamping: places), value]) { arguments in
            buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, $0.count, "%.*f", arguments) }
        }
        guard written > 0, Int(written) < buffer.count else { return "\(value)" }
        return String(decoding: buffer.prefix(Int(written)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
