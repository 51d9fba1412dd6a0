internal import CShims

#if canImport(Glibc)
    import Glibc
#endif

/// A file with no name until it is complete (Linux `O_TMPFILE`): a process killed while writing it
/// leaves nothing behind, by construction.
package enum UnnamedFile {
    /// An unnamed, writable file in `folder` with permission bits `mode`; nil when the file system
    /// cannot make one (then use a named temporary file).
    package static func create(in folder: String, mode: UInt32 = 0o644) -> FileDescriptor? {
        let fd = iap_open_unnamed(folder, mode)
        guard fd >= 0 else { return nil }
        return FileDescriptor(owning: fd, path: folder + "/(unnamed)")
    }

    /// Gives the unnamed `file` the name `path`, which must not exist yet.
    package static func link(_ file: FileDescriptor, as path: String) throws {
        guard iap_link_unnamed(file.rawValue, path) == 0 else { throw SystemError("linkat", path: path) }
    }
}
