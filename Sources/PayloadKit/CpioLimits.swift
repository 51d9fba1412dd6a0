internal import IAPCore

/// What the fixed-width octal fields of a cpio odc header can hold, and the caps (from `Limits`)
/// on what a Payload entry may make the reader hold in memory.
enum CpioLimits {
    /// Largest value of an 11-digit octal field (mtime, filesize): 8 GiB - 1.
    static let maxOctal11: UInt64 = 0o77777777777
    /// Largest value of a 6-digit octal field (ino, namesize): 262,143.
    static let maxOctal6: UInt64 = 0o777777
    /// Longest entry name a payload may hold, in bytes with the terminating NUL (Linux PATH_MAX;
    /// the entry rules allow 1024-byte paths, so anything longer is invalid content anyway).
    static let maxNameBytes = Limits.cpioNameBytes
    /// Longest symlink target read into memory (libarchive's limit: 1 MiB).
    static let maxLinkTargetBytes = Limits.cpioLinkTargetBytes
    /// Permission bits an entry may carry (no file type bits).
    static let permissionMask: UInt16 = 0o7777
}

/// The st_mode file-type bits (libarchive's AE_IF* values, which Swift cannot import as macros).
enum FileTypeBits {
    static let mask: UInt32 = 0o170000
    static let regular: UInt32 = 0o100000
    static let directory: UInt32 = 0o040000
    static let symlink: UInt32 = 0o120000
    static let fifo: UInt32 = 0o010000
    static let characterDevice: UInt32 = 0o020000
    static let blockDevice: UInt32 = 0o060000
    static let socket: UInt32 = 0o140000
}
