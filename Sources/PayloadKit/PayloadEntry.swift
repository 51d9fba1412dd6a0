/// One cpio entry of a payload, as its header states it (names are reported, never judged).
package struct PayloadEntry: Equatable, Sendable {
    /// What an entry is, decided from its type bits, its symlink target and its hard-link target.
    package enum Kind: Equatable, Sendable {
        case file, directory, symlink, hardlink, fifo, characterDevice, blockDevice, socket
        /// A file-type field (st_mode & 0o170000) that names no known type.
        case unknown(UInt32)
    }

    /// The stored name, byte for byte (e.g. `./Contents/x`; `.` for the root).
    package var path: String
    /// The entry's type; a symlink target makes it `.symlink`, else a hard-link target `.hardlink`.
    package var kind: Kind
    /// The full st_mode: type bits and permission bits.
    package var mode: UInt32
    /// Owner user id.
    package var uid: UInt32
    /// Owner group id.
    package var gid: UInt32
    /// Data size from the header.
    package var size: UInt64
    /// Modification time in seconds since 1970.
    package var modificationTime: Int64
    /// A symlink's target.
    package var linkTarget: String?
    /// For a hard link, the path of the earlier entry it links to.
    package var hardlinkTarget: String?
    /// The inode number from the header.
    package var inode: UInt64
    /// The link count from the header.
    package var nlink: UInt32
    /// Byte offset of the entry's header in the decoded cpio stream.
    package var headerOffset: UInt64

    /// Builds an entry from field values (for tests and for callers that compare listings).
    package init(
        path: String, kind: Kind, mode: UInt32, uid: UInt32 = 0, gid: UInt32 = 0, size: UInt64,
        modificationTime: Int64, linkTarget: String? = nil, hardlinkTarget: String? = nil,
        inode: UInt64, nlink: UInt32, headerOffset: UInt64
    ) {
        self.path = path
        self.kind = kind
        self.mode = mode
        self.uid = uid
        self.gid = gid
        self.size = size
        self.modificationTime = modificationTime
        self.linkTarget = linkTarget
        self.hardlinkTarget = hardlinkTarget
        self.inode = inode
        self.nlink = nlink
        self.headerOffset = headerOffset
    }

    /// A symlink target wins over everything, then a hard-link target, then the type bits.
    static func kind(mode: UInt32, linkTarget: String?, hardlinkTarget: String?) -> Kind {
        if linkTarget != nil { return .symlink }
        if hardlinkTarget != nil { return .hardlink }
        switch mode & FileTypeBits.mask {
        case FileTypeBits.regular: return .file
        case FileTypeBits.directory: return .directory
        case FileTypeBits.symlink: return .symlink
        case FileTypeBits.fifo: return .fifo
        case FileTypeBits.characterDevice: return .characterDevice
        case FileTypeBits.blockDevice: return .blockDevice
        case FileTypeBits.socket: return .socket
        case let other: return .unknown(other)
        }
    }
}
