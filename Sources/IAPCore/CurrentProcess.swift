#if canImport(Glibc)
    import Glibc
#endif

/// The running process's own ends, for executables that do without Foundation: standard error
/// written unbuffered, and an exit with a status.
public enum CurrentProcess {
    /// Writes `text` to standard error at once (`write(2)`, retried on `EINTR` and short writes);
    /// a failure to write is ignored, as there is nowhere left to report it.
    public static func writeToStandardError(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return }
            var done = 0
            while done < bytes.count {
                let n = retryingOnInterrupt { write(2, base + done, bytes.count - done) }
                if n <= 0 { return }
                done += n
            }
        }
    }

    /// Ends the process with `status`, flushing standard output first (`exit(3)`).
    public static func exit(_ status: Int32) -> Never {
        Glibc.exit(status)
    }
}
