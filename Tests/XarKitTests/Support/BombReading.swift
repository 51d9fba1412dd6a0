import Testing
import XarKit

/// Reads `stream` in 1 MiB steps until it fails, as a bomb must: records an issue if it reaches the
/// end instead, expects the failure to be `xar-data-size`, and returns the bytes delivered before it.
func bytesDeliveredBeforeTheSizeStop(_ stream: XarDataStream) -> Int {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
    defer { buffer.deallocate() }
    var delivered = 0
    do {
        while true {
            let n = try stream.read(into: buffer)
            if n == 0 { break }
            delivered += n
        }
        Issue.record("the bomb decoded to the end")
    } catch {
        #expect(error.rule?.id == "xar-data-size")
    }
    return delivered
}
