/// What the fixed-width octal fields of a cpio odc header can hold, and the caps on what a Payload
/// entry may make the reader hold in memory.
package enum CpioLimits {
    /// Largest value of an 11-digit octal field (mtime, filesize): 8 GiB - 1.
    static let maxOctal11: UInt64 = 0o77777777777
    /// Largest value of a 6-digit octal field (ino, namesize): 262,143.
    static let maxOctal6: UInt64 = 0o777777
    /// Longest entry name a payload may hold, in bytes with the terminating NUL (Linux PATH_MAX;
    /// the entry rules allow 1024-byte paths, so anything longer is invalid content anyway).
    static let maxNameBytes: UInt64 = 4096
    /// Longest symlink target read into memory (libarchive's limit: 1 MiB).
    static let maxLinkTargetBytes: UInt64 = 1 << 20
    /// Most bytes one entry's header may add to a Payload's decoded size beyond its data, for
    /// entries whose path obeys the 1024-byte entry path limit (IAPKit's `PackageLimits.pathBytes`):
    /// the larger fixed header (newc, 110 bytes; odc has 76), the name with its leading "./" and
    /// NUL (1024 + 3), and newc's padding of header+name and of data to 4 bytes (3 + 3).
    /// Decoded-size caps are the data plus this per entry.
    package static let entryAllowance: UInt64 = 110 + 1024 + 3 + 3 + 3
    /// Slack on top of the per-entry allowances: the trailer entry and the final block's padding.
    package static let slackBytes: UInt64 = 1 << 20
    /// Most decoded Payload bytes inspect reads to reach ContentInfo.plist (its second entry).
    package static let inspectedBytes: UInt64 = 64 << 20
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
