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

extension SystemError {
    /// The `errno` values the layers above name, so that they need not import the C library.
    public enum Code {
        /// `ENOENT`: nothing at that path.
        public static let noSuchFile = ENOENT
        /// `EEXIST`: something is already there.
        public static let exists = EEXIST
        /// `EISDIR`: a folder where a file was expected.
        public static let isDirectory = EISDIR
        /// `ENOTDIR`: not a folder where one was expected.
        public static let notDirectory = ENOTDIR
        /// `ENOSPC`: no space left on the device.
        public static let noSpace = ENOSPC
        /// `EFBIG`: a file over a size limit.
        public static let fileTooLarge = EFBIG
        /// `E2BIG`: more of something than allowed.
        public static let tooMany = E2BIG
        /// `EIO`: an input/output error.
        public static let io = EIO
        /// `ELOOP`: a symlink where none may be.
        public static let symlinkLoop = ELOOP
    }
}
