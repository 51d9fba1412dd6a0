/// One path of a bill of materials, as pkgbuild records it for a payload entry.
package struct BomEntry: Equatable, Sendable {
    /// The kind of file system object a path record describes (the record's type byte).
    package enum Kind: Equatable, Sendable {
        /// A regular file (type 1).
        case file
        /// A directory (type 2).
        case directory
        /// A symbolic link (type 3).
        case symlink
        /// A character or block device (type 4).
        case device
    }

    /// Path in pkgbuild's spelling: "." for the root, "./a/b" beneath it.
    package var path: String
    /// What the path is.
    package var kind: Kind
    /// Full `st_mode` including the type bits, as stored (0o100644, 0o040755, 0o120755, …).
    package var mode: UInt16
    /// Owner user id.
    package var uid: UInt32
    /// Owner group id.
    package var gid: UInt32
    /// Modification time in seconds since 1970.
    package var modificationTime: UInt32
    /// Files: byte size; symlinks: the target's length in bytes; directories: as the caller measured it.
    package var size: UInt64
    /// The POSIX `cksum` CRC of a file's bytes or of a link's target; 0 for directories and devices.
    package var checksum: UInt32
    /// A symlink's target; nil for everything else.
    package var linkTarget: String?
    /// A device's number; nil for everything else.
    package var device: UInt32?

    /// Creates an entry from its stored fields.
    package init(
        path: String, kind: Kind, mode: UInt16, uid: UInt32 = 0, gid: UInt32 = 0,
        modificationTime: UInt32 = 0, size: UInt64 = 0, checksum: UInt32 = 0,
        linkTarget: String? = nil, device: UInt32? = nil
    ) {
        self.path = path
        self.kind = kind
        self.mode = mode
        self.uid = uid
        self.gid = gid
        self.modificationTime = modificationTime
        self.size = size
        self.checksum = checksum
        self.linkTarget = linkTarget
        self.device = device
    }
}
