import IAPSystem

/// Writes the entries of a scan as a new folder, whole or not at all: they are copied into a hidden
/// folder beside the destination (files through `copy_file_range`, folders and links made anew),
/// flushed, and renamed into place. The destination must not exist or be an empty folder.
enum ContentFolderCopier {
    /// Copies `scan` (its root excluded; entries whose path is in `skipping` left out) to
    /// `destination`, with `extraFiles` (name → bytes) written at its top.
    static func copy(
        _ scan: ContentFolderScan, to destination: String, skipping: Set<String> = [],
        extraFiles: [(name: String, bytes: [UInt8])] = []
    ) throws {
        let name = ContentFolderScanner.baseName(of: destination)
        if let status = FileSystem.linkStatus(destination) {
            guard status.isDirectory, try ContentFolderScanner.names(in: destination).isEmpty else {
                throw IAPKitError.refused(
                    "\(destination) already exists and is not an empty folder; iapkg never overwrites — remove it or choose another"
                )
            }
        }
        let parent = try DirectoryHandle.open(PathText.parent(of: destination))
        let staging = ".\(name).iapkg-copy-\(CurrentProcess.id)"
        try? parent.removeTree(staging)
        try parent.makeDirectory(staging, mode: 0o755)
        do {
            let top = try parent.openDirectory(staging)
            var folders = [top]
            var skipped: [String] = []  // a skipped folder's subtree is skipped too
            for source in scan.entries.dropFirst() {
                let entry = source.entry
                if skipping.contains(entry.path) || skipped.contains(where: { entry.path.hasPrefix($0 + "/") }) {
                    if entry.kind == .directory { skipped.append(entry.path) }
                    continue
                }
                folders.removeLast(max(0, folders.count - entry.components.count))
                guard let folder = folders.last, let leaf = entry.components.last else { continue }
                switch entry.kind {
                case .directory:
                    try folder.makeDirectory(leaf, mode: entry.permissions & 0o777)
                    folders.append(try folder.openDirectory(leaf))
                case .symlink:
                    try folder.makeSymlink(leaf, target: entry.linkTarget ?? "")
                case .file:
                    let input = try FileSystem.openNoFollow(source.sourcePath)
                    let output = try folder.createFile(leaf, mode: entry.permissions & 0o777)
                    try output.append(from: input, offset: 0, count: entry.size)
                    try output.sync()
                default:
                    throw IAPKitError.refused(
                        "\(source.sourcePath) is a \(entry.kind.name), which a content folder cannot hold; remove it")
                }
            }
            for file in extraFiles { try top.writeAtomically(file.name, file.bytes) }
            try top.sync()
            if FileSystem.linkStatus(destination) != nil { try parent.removeTree(name) }
            // Something made at the destination since it was cleared is not replaced: the copy fails instead.
            guard try parent.renameNoReplace(staging, to: name) == true else {
                throw SystemError("rename into place", path: destination, code: SystemError.Code.exists)
            }
            try parent.sync()
        } catch {
            try? parent.removeTree(staging)
            throw error
        }
    }
}
