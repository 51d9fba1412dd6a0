internal import IAPSystem

/// A private folder for one input of the `content` target (in `/dev/shm` when it can hold one),
/// holding `store/`, the version store it unpacks into, and `heap/`, where the xar writer keeps
/// its unlinked heap file. After an unpack, `check()` traps when anything was written beside them
/// or a symlink under the store leads out of it. Removed with everything in it when it goes away.
final class UnpackSandbox {
    private let folder: TemporaryFolder
    let directory: DirectoryHandle
    var path: String { folder.path }
    var store: String { directory.child("store") }
    var heap: String { directory.child("heap") }

    init() {
        guard
            let folder = (try? TemporaryFolder(in: "/dev/shm", prefix: "iapkg-fuzz-content-"))
                ?? (try? TemporaryFolder(prefix: "iapkg-fuzz-content-")),
            let directory = try? DirectoryHandle.open(folder.path),
            (try? directory.makeDirectory("heap", mode: 0o700)) != nil
        else { preconditionFailure("cannot make the content target's sandbox in /dev/shm or the temporary folder") }
        self.folder = folder
        self.directory = directory
    }

    /// Traps when the sandbox holds anything but `store` and an empty `heap`, or when a symlink
    /// under the store is absolute or, resolved by its text, leads out of the store.
    func check() {
        let names = (try? directory.names()) ?? []
        precondition(Set(names).isSubset(of: ["store", "heap"]), "unpack wrote beside the store: \(names)")
        let heapNames = (try? directory.openDirectory("heap").names()) ?? []
        precondition(heapNames.isEmpty, "the xar writer left files in its heap folder: \(heapNames)")
        guard let store = try? directory.openDirectory("store") else { return }
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
}
