#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The folder a version is assembled in: files placed, linked from the installed version or
/// found from an earlier run, each verified; the ones written here remembered to be flushed.
struct Staging: Sendable {
    /// The staging folder's path.
    let path: String
    /// True when an earlier run left the folder (its files are checked before they count).
    let resumed: Bool
    let folders = FolderMaker()
    let written = WrittenFiles()

    init(path: String) {
        self.path = path
        resumed = LocalFiles.exists(path)
    }

    /// True when an earlier run left `file` here, complete and verified.
    func holds(_ file: VersionManifest.File) -> Bool {
        guard resumed, Self.holds(path + "/" + file.path, file) else { return false }
        written.add(path + "/" + file.path)
        return true
    }

    /// Links (or copies) the installed `source` to `file`'s place if it still holds its bytes.
    func reuse(_ source: String, for file: VersionManifest.File) throws(FetchError) -> Bool {
        guard Self.holds(source, file) else { return false }
        let target = path + "/" + file.path
        try folders.makeParent(of: target)
        try LocalFiles.link(source, to: target)
        return true
    }

    /// Where the bytes of `file` are written as they arrive: large files in `parts` (named by their
    /// SHA-256, kept across runs to be resumed), small ones straight at their place here (a file
    /// cut short there is never counted: ``holds(_:)`` checks size and SHA-256 before a resumed run
    /// takes a file, and nothing here is visible before the whole folder is flushed and renamed).
    func destination(of file: VersionManifest.File, parts: String) throws(FetchError) -> String {
        guard file.size < FileTransfer.resumableSize else { return parts + "/" + file.sha256 }
        let target = path + "/" + file.path
        try folders.makeParent(of: target)
        // What an earlier run left there may be a hard link to an installed file: never written through.
        if resumed { LocalFiles.remove(target) }
        return target
    }

    /// Moves the verified `part` to the place of the first of `files` (where it is already when
    /// it was written there) and links (or copies) it to the others.
    func place(_ part: String, as files: [VersionManifest.File]) throws(FetchError) {
        let targets = files.map { path + "/" + $0.path }
        for target in targets { try folders.makeParent(of: target) }
        if part != targets[0] { try LocalFiles.move(part, to: targets[0]) }
        if files[0].size >= FileTransfer.resumableSize { LocalFiles.remove(part + ".validator") }
        written.add(targets[0])
        for target in targets.dropFirst() { try LocalFiles.link(targets[0], to: target) }
    }

    /// Creates the manifest's symlinks.
    func link(_ symlinks: [VersionManifest.Symlink]) throws(FetchError) {
        for link in symlinks {
            let target = path + "/" + link.path
            try folders.makeParent(of: target)
            if LocalFiles.exists(target) { try? FileManager.default.removeItem(atPath: target) }
            do {
                try FileManager.default.createSymbolicLink(atPath: target, withDestinationPath: link.target)
            } catch {
                throw .local(target, "cannot be created (\(error))")
            }
        }
    }

    /// Writes the version's manifest beside its content.
    func writeManifest(_ data: Data) throws(FetchError) {
        let target = path + "/manifest.json"
        try folders.makeParent(of: target)
        do {
            try data.write(to: URL(fileURLWithPath: target))
        } catch {
            throw .local(target, "cannot be written (\(error))")
        }
        written.add(target)
    }

    /// True when `path` is a regular file with `file`'s size and SHA-256.
    static func holds(_ path: String, _ file: VersionManifest.File) -> Bool {
        guard LocalFiles.regularSize(path) == file.size, let digest = Digests.file(path) else { return false }
        return digest.sha256 == file.sha256 && digest.size == file.size
    }
}
