/// The one hand-made cpio odc writer of the test fixtures: raw bytes for inputs our writer refuses to
/// make (hostile names, hard links, data after the trailer) and for pinning the exact header layout.
package struct OdcBuilder {
    /// The bytes written so far.
    package private(set) var bytes: [UInt8] = []

    /// An empty archive (no entries, no trailer yet).
    package init() {}

    /// One octal field, zero-padded to `width` digits.
    package static func octal(_ value: UInt64, width: Int) -> String {
        let digits = String(value, radix: 8)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// The 76-byte header plus NUL-terminated name for one entry.
    package static func header(
        name: [UInt8], mode: UInt32, size: UInt64, ino: UInt64 = 0, nlink: UInt64 = 1,
        mtime: UInt64 = 0, dev: UInt64 = 0, uid: UInt64 = 0, gid: UInt64 = 0
    ) -> [UInt8] {
        let fields =
            "070707" + octal(dev, width: 6) + octal(ino, width: 6) + octal(UInt64(mode), width: 6)
            + octal(uid, width: 6) + octal(gid, width: 6) + octal(nlink, width: 6) + octal(0, width: 6)
            + octal(mtime, width: 11) + octal(UInt64(name.count + 1), width: 6) + octal(size, width: 11)
        return Array(fields.utf8) + name + [0]
    }

    /// Appends an entry with `data` as its body.
    package mutating func add(
        _ name: String, mode: UInt32, data: [UInt8] = [], ino: UInt64 = 0, nlink: UInt64 = 1,
        mtime: UInt64 = 0
    ) {
        add(nameBytes: Array(name.utf8), mode: mode, data: data, ino: ino, nlink: nlink, mtime: mtime)
    }

    /// Appends an entry whose name is given as raw bytes (which may be invalid UTF-8).
    package mutating func add(
        nameBytes: [UInt8], mode: UInt32, data: [UInt8] = [], ino: UInt64 = 0, nlink: UInt64 = 1,
        mtime: UInt64 = 0
    ) {
        bytes += Self.header(
            name: nameBytes, mode: mode, size: UInt64(data.count), ino: ino, nlink: nlink, mtime: mtime)
        bytes += data
    }

    /// Appends the `TRAILER!!!` entry the way libarchive writes it (modification time 0 unless given).
    package mutating func addTrailer(mtime: UInt64 = 0) {
        bytes += Self.header(name: Array("TRAILER!!!".utf8), mode: 0, size: 0, mtime: mtime)
    }
}
