internal import IAPCore

#if canImport(Glibc)
    import Glibc
#endif

/// A private folder (in `/dev/shm` when it can hold one) holding `store/`, the version store the
/// `content` target unpacks into, and `heap/`, where the xar writer keeps its unlinked heap file.
/// After an unpack, `check()` traps when anything was written beside them or a symlink under the
/// store leads out of it; `clear()` empties the store for the next input. One per thread.
final class UnpackSandbox {
    let path: String
    let folder: DirectoryHandle
    var store: String { folder.child("store") }
    var heap: String { folder.child("heap") }

    nonisolated(unsafe) private static var sandboxes: [pthread_t: UnpackSandbox] = [:]
    nonisolated(unsafe) private static var lock = pthread_mutex_t()

    /// The calling thread's sandbox, made on first use.
    static func current() -> UnpackSandbox {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        if let sandbox = sandboxes[pthread_self()] { return sandbox }
        let made = UnpackSandbox()
        if sandboxes.isEmpty { atexit { UnpackSandbox.removeAll() } }
        sandboxes[pthread_self()] = made
        return made
    }

    /// Removes every thread's sandbox folder (at exit; a process killed on a finding leaves its
    /// folder, a few empty directories, in /dev/shm).
    static func removeAll() {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        for sandbox in sandboxes.values {
            let parts = sandbox.path.split(separator: "/", omittingEmptySubsequences: false)
            try? DirectoryHandle.open(parts.dropLast().joined(separator: "/")).removeTree(String(parts.last ?? ""))
        }
        sandboxes.removeAll()
    }

    private init() {
        var made: String?
        for base in ["/dev/shm", "/tmp"] {
            var template = Array((base + "/iapkg-fuzz-content-XXXXXX").utf8CString)
            if let name = template.withUnsafeMutableBufferPointer({ $0.baseAddress.flatMap { mkdtemp($0) } }) {
                made = String(cString: name)
                break
            }
        }
        guard let made, let folder = try? DirectoryHandle.open(made),
            (try? folder.makeDirectory("heap", mode: 0o700)) != nil
        else { preconditionFailure("cannot make the content target's sandbox in /dev/shm or /tmp") }
        path = made
        self.folder = folder
    }

    /// Traps when the sandbox holds anything but `store` and an empty `heap`, or when a symlink
    /// under the store is absolute or, resolved by its text, leads out of the store.
    func check() {
        let names = (try? folder.names()) ?? []
        precondition(Set(names).isSubset(of: ["store", "heap"]), "unpack wrote beside the store: \(names)")
        let heapNames = (try? folder.openDirectory("heap").names()) ?? []
        precondition(heapNames.isEmpty, "the xar writer left files in its heap folder: \(heapNames)")
        guard let store = try? folder.openDirectory("store") else { return }
        checkLinks(in: store, depth: [])
    }

    private func checkLinks(in directory: DirectoryHandle, depth: [String]) {
        for name in (try? directory.names()) ?? [] {
            guard let status = directory.status(name) else { continue }
            if status.isDirectory, let child = try? directory.openDirectory(name) {
                checkLinks(in: child, depth: depth + [name])
            } else if let target = directory.readSymlink(name) {
                precondition(
                    !target.hasPrefix("/"), "unpack made an absolute symlink \(directory.child(name)) -> \(target)")
                var parts = depth
                for part in target.split(separator: "/") where part != "." {
                    if part == ".." {
                        precondition(
                            !parts.isEmpty,
                            "unpack made a symlink out of the store: \(directory.child(name)) -> \(target)")
                        parts.removeLast()
                    } else {
                        parts.append(String(part))
                    }
                }
            }
        }
    }

    /// Empties the store (and anything a faulty unpack wrote beside it) for the next input.
    func clear() {
        for name in (try? folder.names()) ?? [] where name != "heap" {
            try? folder.removeTree(name)
        }
    }
}
