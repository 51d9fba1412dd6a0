/// The unread part of a Payload decoder's input buffer, `buffer[start..<end]`, refilled from the
/// source: the one read-ahead the gzip and the bzip2/xz decoders share.
struct InputWindow {
    var start = 0
    var end = 0
    /// True once the source returned 0.
    var ended = false

    /// Bytes held and not yet consumed.
    var count: Int { end - start }

    /// Reads from `source` into `buffer` until `count` bytes are held or the source ends; held bytes
    /// move to the front first.
    mutating func fill(
        atLeast count: Int, buffer: UnsafeMutableRawBufferPointer,
        source: (UnsafeMutableRawBufferPointer) throws -> Int
    ) throws(PayloadError) {
        while end - start < count && !ended {
            if start > 0 {
                let held = end - start
                if held > 0, let base = buffer.baseAddress { base.copyMemory(from: base + start, byteCount: held) }
                start = 0
                end = held
            }
            let space = UnsafeMutableRawBufferPointer(rebasing: buffer[end...])
            let read: Int
            do {
                read = try source(space)
            } catch let error as PayloadError {
                throw error
            } catch {
                throw .inputFailed(String(describing: error))
            }
            guard (0...space.count).contains(read) else {
                throw .inputFailed("the source reported \(read) bytes for a \(space.count)-byte buffer")
            }
            if read == 0 { ended = true }
            end += read
        }
    }
}
