import IAPCore

#if canImport(Glibc)
    import Glibc
#endif

/// A file written beside its destination and moved into place only when complete, so a failed or
/// killed write never leaves a partial file under the real name. The file has no name while it is
/// written (O_TMPFILE), so even `kill -9` leaves nothing; where the file system cannot do that, a
/// hidden temporary name is used, and stale ones of earlier killed runs are removed.
final class AtomicOutputFile {
    let destination: String
    let file: FileDescriptor
    /// The hidden name the file has now (named fallback) or will have for an instant before the rename.
    private let temporaryPath: String
    private let unnamed: Bool
    private var committed = false

    /// Creates the file in the destination's folder.
    init(destination: String) throws {
        self.destination = destination
        let folder = Self.folder(of: destination)
        let base = destination.split(separator: "/").last.map(String.init) ?? "package"
        Self.removeStaleTemporaries(in: folder, base: base)
        if let file = UnnamedFile.create(in: folder) {
            // 0644 whatever the umask, as the named fallback and the tool before it wrote.
            fchmod(file.rawValue, 0o644)
            self.file = file
            unnamed = true
            let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
            temporaryPath =
                folder + "/." + base + ".iapkg-" + String((0..<6).map { _ in letters.randomElement() ?? "x" })
            return
        }
        var template = Array((folder + "/." + base + ".iapkg-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw SystemError("create", path: destination) }
        temporaryPath = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        fchmod(fd, 0o644)
        file = FileDescriptor(owning: fd, path: temporaryPath)
        unnamed = false
    }

    /// Flushes the file, moves it over the destination and flushes the folder.
    func commit() throws {
        try file.sync()
        if unnamed { try UnnamedFile.link(file, as: temporaryPath) }
        guard rename(temporaryPath, destination) == 0 else {
            let error = SystemError("rename", path: destination)
            if unnamed { unlink(temporaryPath) }
            throw error
        }
        committed = true
        let dir = open(Self.folder(of: destination), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dir >= 0 {
            fsync(dir)
            close(dir)
        }
    }

    deinit {
        if !committed && !unnamed { unlink(temporaryPath) }
    }

    /// Removes `.BASE.iapkg-XXXXXX` files left by runs killed before this one (older than a minute:
    /// a concurrent run holds its temporary name for an instant only, or writes unnamed).
    private static func removeStaleTemporaries(in folder: String, base: String) {
        guard let dir = opendir(folder) else { return }
        defer { closedir(dir) }
        let prefix = "." + base + ".iapkg-"
        let now = time(nil)
        while let item = readdir(dir) {
            let name = withUnsafeBytes(of: item.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name.hasPrefix(prefix), name.utf8.count == prefix.utf8.count + 6 else { continue }
            var st = stat()
            let path = folder + "/" + name
            guard lstat(path, &st) == 0, st.st_mode & S_IFMT == S_IFREG, now - st.st_mtim.tv_sec > 60 else { continue }
            unlink(path)
        }
    }

    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let folder = String(path[..<slash])
        return folder.isEmpty ? "/" : folder
    }
}
