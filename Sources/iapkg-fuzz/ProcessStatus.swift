/// A `waitpid` status taken apart (the C macros WIFEXITED and friends are not visible to Swift).
struct ProcessStatus {
    /// The raw status word.
    let raw: Int32

    init(_ raw: Int32) { self.raw = raw }

    /// The exit code when the process exited normally.
    var exitCode: Int32? { raw & 0x7F == 0 ? (raw >> 8) & 0xFF : nil }

    /// The signal that killed the process, if one did.
    var signal: Int32? {
        let number = raw & 0x7F
        return number != 0 && number != 0x7F ? number : nil
    }

    /// "exit 3", "signal 11 (SIGSEGV)".
    var summary: String {
        if let exitCode { return "exit \(exitCode)" }
        if let signal { return "signal \(signal) (\(ProcessStatus.signalName(signal)))" }
        return "status \(raw)"
    }

    /// The usual name of `signal`.
    static func signalName(_ signal: Int32) -> String {
        switch signal {
        case 4: "SIGILL"
        case 5: "SIGTRAP"
        case 6: "SIGABRT"
        case 7: "SIGBUS"
        case 8: "SIGFPE"
        case 9: "SIGKILL"
        case 11: "SIGSEGV"
        case 15: "SIGTERM"
        default: "signal \(signal)"
        }
    }
}
