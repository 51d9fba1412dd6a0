#if canImport(Glibc)
    import Glibc
#endif

/// Runs the system call `call` again for as long as a signal interrupts it (`-1` with `EINTR`),
/// and returns its first uninterrupted result; the one place the tool retries on `EINTR`.
@inline(__always)
package func retryingOnInterrupt<Result: BinaryInteger>(_ call: () -> Result) -> Result {
    while true {
        let result = call()
        if result == -1 && errno == EINTR { continue }
        return result
    }
}
