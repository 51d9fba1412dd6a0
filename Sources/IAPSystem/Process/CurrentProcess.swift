#if canImport(Glibc)
    import Glibc
#endif

/// The running process's own ends, for executables that do without Foundation: standard error
/// written unbuffered, and an exit with a status.
package enum CurrentProcess {
    /// Writes `text` to standard error at once (`write(2)`, retried on `EINTR` and short writes);
    /// a failure to write is ignored, as there is nowhere left to report it.
    package static func writeToStandardError(_ text: String) { write(text, to: 2) }

    /// Writes `text` to standard output at once, unbuffered, as `writeToStandardError` does.
    package static func writeToStandardOutput(_ text: String) { write(text, to: 1) }

    private static func write(_ text: String, to descriptor: Int32) {
        var text = text
        text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return }
            var done = 0
            while done < bytes.count {
                let n = retryingOnInterrupt { Glibc.write(descriptor, base + done, bytes.count - done) }
                if n <= 0 { return }
                done += n
            }
        }
    }

    /// Whether `descriptor` (0, 1, 2…) is a terminal.
    package static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

    /// This process's id.
    package static var id: Int32 { getpid() }

    /// Whether a process `pid` exists (one of another user's counts), as `kill(pid, 0)` tells.
    package static func exists(_ pid: Int32) -> Bool { pid > 0 && (kill(pid, 0) == 0 || errno == EPERM) }

    /// The process's environment variables (`environ`), the first of a repeated name kept.
    package static var environment: [String: String] {
        var variables: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.utf8.firstIndex(of: UInt8(ascii: "=")) {
                let name = String(Substring(text.utf8[..<equals]))
                if variables[name] == nil {
                    variables[name] = String(Substring(text.utf8[text.utf8.index(after: equals)...]))
                }
            }
            entry += 1
        }
        return variables
    }

    /// The processors online (`sysconf(_SC_NPROCESSORS_ONLN)`), at least 1.
    package static var processorCount: Int { max(1, sysconfCores()) }

    /// Ends the process with `status`, flushing standard output first (`exit(3)`).
    package static func exit(_ status: Int32) -> Never {
        Glibc.exit(status)
    }
}
