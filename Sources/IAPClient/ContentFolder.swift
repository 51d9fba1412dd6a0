#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The content folder on the device:
///
///     FOLDER/current -> versions/1.1        the app reads FOLDER/current/Contents/…
///     FOLDER/versions/1.1/                  ContentInfo.plist, Contents/…, manifest.json
///     FOLDER/versions/1.0/                  the previous version, kept until the next update
///     FOLDER/.partial/stage-<manifest SHA-256>/   the version being assembled (resumable)
///     FOLDER/.partial/parts/<file SHA-256>  files being received
///     FOLDER/.lock                          held by the one download at work here
struct ContentFolder {
    let root: String

    var versions: String { root + "/versions" }
    var current: String { root + "/current" }
    var partial: String { root + "/.partial" }
    var parts: String { partial + "/parts" }

    /// The folder a version being assembled lives in until it is complete.
    func staging(_ manifestSHA256: String) -> String { partial + "/stage-" + manifestSHA256 }

    /// The installed version: its name, folder, manifest bytes and their SHA-256 (the manifest is
    /// decoded only when an update needs it: at 100,000 files that is ~70 MB a launch's check spares).
    struct Installed {
        var version: String
        var folder: String
        var manifestData: Data
        var manifestSHA256: String

        /// The decoded manifest, nil when it cannot be read.
        func manifest() -> VersionManifest? {
            try? JSONDecoder().decode(VersionManifest.self, from: manifestData)
        }

        /// The numbers of files and symlinks, read without decoding every file's entry.
        func counts() -> (files: Int, symlinks: Int) {
            struct Counts: Decodable {
                var fileCount: Int
                var symlinks: [VersionManifest.Symlink]
            }
            let counts = try? JSONDecoder().decode(Counts.self, from: manifestData)
            return (counts?.fileCount ?? 0, counts?.symlinks.count ?? 0)
        }
    }

    /// The version `current` points to, if it is there with a manifest.
    func installed() -> Installed? {
        let fm = FileManager.default
        guard let target = try? fm.destinationOfSymbolicLink(atPath: current), target.hasPrefix("versions/") else {
            return nil
        }
        let version = String(target.dropFirst("versions/".count))
        let folder = versions + "/" + version
        guard ManifestRules.isVersionName(version), let data = fm.contents(atPath: folder + "/manifest.json") else {
            return nil
        }
        return Installed(version: version, folder: folder, manifestData: data, manifestSHA256: Digests.sha256Hex(data))
    }

    /// Creates the folders and takes the folder's lock (held until the lock is released).
    func prepare() throws(FetchError) -> FolderLock {
        let fm = FileManager.default
        do {
            try fm.createDirectory(atPath: versions, withIntermediateDirectories: true)
            try fm.createDirectory(atPath: parts, withIntermediateDirectories: true)
        } catch {
            throw .local(root, "cannot be created (\(error))")
        }
        guard let lock = try FolderLock.take(root + "/.lock") else { throw .busy(root) }
        return lock
    }

    /// Removes what an earlier run left for another version: staging folders but `keep`, and
    /// parts whose SHA-256 is not in `wanted`.
    func clean(keeping keep: String, parts wanted: Set<String>) {
        let fm = FileManager.default
        for name in (try? fm.contentsOfDirectory(atPath: partial)) ?? [] where name != "parts" {
            if partial + "/" + name != keep { try? fm.removeItem(atPath: partial + "/" + name) }
        }
        for name in (try? fm.contentsOfDirectory(atPath: parts)) ?? [] {
            let sha = name.hasSuffix(".validator") ? String(name.dropLast(".validator".count)) : name
            if !wanted.contains(sha) { try? fm.removeItem(atPath: parts + "/" + name) }
        }
    }

    /// Moves the complete (and flushed) `staging` folder into place as `version` (one rename), points `current`
    /// at it (a new link renamed over the old one), and removes versions but it and `previous`.
    func install(_ staging: String, as version: String, previous: String?) throws(FetchError) {
        let fm = FileManager.default
        let destination = versions + "/" + version
        if fm.fileExists(atPath: destination) {
            let trash = partial + "/trash-" + UUID().uuidString
            try LocalFiles.move(destination, to: trash)
        }
        try LocalFiles.move(staging, to: destination)
        let link = partial + "/current.new"
        try? fm.removeItem(atPath: link)
        do {
            try fm.createSymbolicLink(atPath: link, withDestinationPath: "versions/" + version)
        } catch {
            throw .local(link, "cannot be created (\(error))")
        }
        try LocalFiles.move(link, to: current)
        for name in (try? fm.contentsOfDirectory(atPath: versions)) ?? [] where name != version && name != previous {
            try? fm.removeItem(atPath: versions + "/" + name)
        }
        try? fm.removeItem(atPath: partial)
    }

    /// Bytes free on the folder's file system (nil when it cannot be told).
    var freeBytes: UInt64? { LocalFiles.freeBytes(root) }
}
