#if canImport(Glibc)
    import Glibc
#endif

/// The running program's image: where its executable is, and replacing it with another program.
package enum ProcessImage {
    /// The absolute path of the running executable (`/proc/self/exe`), or nil where it cannot be read.
    package static var executablePath: String? { try? FileSystem.readLink("/proc/self/exe") }

    /// Replaces the running process with the program at `path`, run with `arguments` (the first is
    /// its name, as `argv[0]`) and the same environment and open descriptors (`execv(3)`).
    /// Returns only on failure, with the reason.
    package static func replace(with path: String, arguments: [String]) -> SystemError {
        var pointers: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        pointers.append(nil)
        defer { for pointer in pointers { free(pointer) } }
        execv(path, pointers)
        return SystemError("execute", path: path)
    }
}
