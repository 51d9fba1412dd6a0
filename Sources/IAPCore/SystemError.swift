#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failed system call, with what was being done and to which path.
public struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What the tool was doing, e.g. "open", "write", "rename".
    public var operation: String
    /// The path it was working on, if any.
    public var path: String?
    /// The `errno` value the call left behind.
    public var code: Int32

    public init(_ operation: String, path: String? = nil, code: Int32 = errno) {
        self.operation = operation
        self.path = path
        self.code = code
    }

    /// True when the error means the disk (or a quota) is full.
    public var isOutOfSpace: Bool { code == ENOSPC || code == EDQUOT || code == EFBIG }

    public var description: String {
        let reason = String(cString: strerror(code))
        if let path { return "\(operation) \(path): \(reason)" }
        return "\(operation): \(reason)"
    }
}

/// Processors online.
func sysconfCores() -> Int { Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) }
