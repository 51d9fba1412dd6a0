#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failed system call, with what was being done and to which path. Part of IAPKit's face
/// (`IAPKitError.system`), re-exported by it.
public struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What the tool was doing, e.g. "open", "write", "rename".
    public var operation: String
    /// The path it was working on, if any.
    public var path: String?
    /// The `errno` value the call left behind.
    public var code: Int32

    package init(_ operation: String, path: String? = nil, code: Int32 = errno) {
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
package func sysconfCores() -> Int { Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

extension SystemError {
    /// The `errno` values the layers above name, so that they need not import the C library.
    package enum Code {
        /// `ENOENT`: nothing at that path.
        package static let noSuchFile = ENOENT
        /// `EEXIST`: something is already there.
        package static let exists = EEXIST
        /// `EISDIR`: a folder where a file was expected.
        package static let isDirectory = EISDIR
        /// `ENOTDIR`: not a folder where one was expected.
        package static let notDirectory = ENOTDIR
        /// `ENOSPC`: no space left on the device.
        package static let noSpace = ENOSPC
        /// `EFBIG`: a file over a size limit.
        package static let fileTooLarge = EFBIG
        /// `E2BIG`: more of something than allowed.
        package static let tooMany = E2BIG
        /// `EIO`: an input/output error.
        package static let io = EIO
        /// `ELOOP`: a symlink where none may be.
        package static let symlinkLoop = ELOOP
    }
}
