/// A file written beside its destination and moved into place only when complete, so a failed or
/// killed write never leaves a partial file under the real name. The file has no name while it is
/// written (O_TMPFILE), so even `kill -9` leaves nothing; where the file system cannot do that, a
/// hidden temporary name is used, and stale ones of earlier killed runs are removed.
package final class AtomicOutputFile {
    /// Where the file goes once complete.
    package let destination: String
    /// The file being written.
    package let file: FileDescriptor
    /// The hidden name the file has now (named fallback) or will have for an instant before the rename.
    private let temporaryPath: String
    private let unnamed: Bool
    private var committed = false

    /// Creates the file in the destination's folder.
    package init(destination: String) throws {
        self.destination = destination
        let folder = PathText.parent(of: destination)
        let base = PathText.lastComponent(of: destination)
        Self.removeStaleTemporaries(in: folder, base: base)
        if let file = UnnamedFile.create(in: folder) {
            // 0644 whatever the umask, as the named fallback and the tool before it wrote.
            try file.setPermissions(0o644)
            self.file = file
            unnamed = true
            let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
            temporaryPath =
                folder + "/." + base + ".iapkg-" + String((0..<6).map { _ in letters.randomElement() ?? "x" })
            return
        }
        do {
            file = try FileSystem.makeTemporaryFile(in: folder, prefix: "." + base + ".iapkg-")
        } catch {
            throw SystemError("create", path: destination, code: error.code)
        }
        temporaryPath = file.path
        try file.setPermissions(0o644)
        unnamed = false
    }

    /// Flushes the file, moves it over the destination and flushes the folder.
    package func commit() throws {
        try file.sync()
        if unnamed { try UnnamedFile.link(file, as: temporaryPath) }
        do {
            try FileSystem.rename(temporaryPath, to: destination)
        } catch {
            if unnamed { FileSystem.remove(temporaryPath) }
            throw error
        }
        committed = true
        FileSystem.syncFolder(PathText.parent(of: destination))
    }

    deinit {
        if !committed && !unnamed { FileSystem.remove(temporaryPath) }
    }

    /// Removes `.BASE.iapkg-XXXXXX` files left by runs killed before this one (older than a minute:
    /// a concurrent run holds its temporary name for an instant only, or writes unnamed).
    private static func removeStaleTemporaries(in folder: String, base: String) {
        guard let directory = try? DirectoryHandle.open(FileSystem.realPath(folder) ?? folder),
            let names = try? directory.names()
        else { return }
        let prefix = "." + base + ".iapkg-"
        for name in names where name.hasPrefix(prefix) && name.utf8.count == prefix.utf8.count + 6 {
            guard let status = directory.status(name), status.isRegularFile, status.age > 60 else { continue }
            FileSystem.remove(folder + "/" + name)
        }
    }
}
