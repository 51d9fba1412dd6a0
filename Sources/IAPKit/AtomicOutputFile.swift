import IAPCore
#if canImport(Glibc)
import Glibc
#endif

/// A file written under a temporary name beside its destination and renamed into place only
/// when complete, so a failed write never leaves a partial file under the real name.
final class AtomicOutputFile {
    let destination: String
    let temporaryPath: String
    let file: FileDescriptor
    private var committed = false

    /// Creates the temporary file in the destination's folder.
    init(destination: String) throws {
        self.destination = destination
        let folder = Self.folder(of: destination)
        let base = destination.split(separator: "/").last.map(String.init) ?? "package"
        var template = Array((folder + "/." + base + ".iapkg-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw SystemError("create", path: destination) }
        temporaryPath = String(cString: template)
        fchmod(fd, 0o644)
        file = FileDescriptor(owning: fd, path: temporaryPath)
    }

    /// Flushes the file, renames it over the destination and flushes the folder.
    func commit() throws {
        try file.sync()
        guard rename(temporaryPath, destination) == 0 else { throw SystemError("rename", path: destination) }
        committed = true
        let dir = open(Self.folder(of: destination), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dir >= 0 {
            fsync(dir)
            close(dir)
        }
    }

    deinit {
        if !committed { unlink(temporaryPath) }
    }

    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let folder = String(path[..<slash])
        return folder.isEmpty ? "/" : folder
    }
}
