#if canImport(Glibc)
    import Glibc
#endif

/// Writes `message` to standard error (file descriptor 2) unbuffered, safe in a forked child.
func printError(_ message: String) {
    var bytes = Array(message.utf8)
    if bytes.last != 0x0A { bytes.append(0x0A) }
    bytes.withUnsafeBytes { buffer in
        var written = 0
        while written < buffer.count {
            let n = write(2, buffer.baseAddress! + written, buffer.count - written)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return }
            written += n
        }
    }
}
