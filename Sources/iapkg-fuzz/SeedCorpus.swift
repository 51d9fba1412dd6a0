import IAPCore
import IAPKit

#if canImport(Glibc)
    import Glibc
#endif

/// Builds the valid packages the fuzzer starts from, in a scratch folder: a product archive and a
/// bare tree from IAPKit's `PackageBuilder`, and (when `bsdtar` is on PATH) a tree written by
/// libarchive's xar writer, its timestamps normalised so every run starts from the same bytes.
enum SeedCorpus {
    /// The fixed time stamped on every seed entry.
    static let epoch: Int64 = 1_700_000_000

    /// Why the seeds could not be made.
    struct SeedError: Error, CustomStringConvertible {
        /// What failed.
        var description: String
    }

    /// Builds every seed under `scratch` (which must exist) and returns them.
    static func build(in scratch: String) throws(SeedError) -> [Seed] {
        let folder = scratch + "/payload"
        try makeContentFolder(folder)
        var seeds: [Seed] = []
        for layout in [PackageLayout.product, .tree] {
            let output = scratch + "/seed-\(layout.rawValue).pkg"
            do {
                _ = try PackageBuilder.build(
                    folder: folder, options: BuildOptions(layout: layout, output: output, sourceDateEpoch: epoch))
            } catch {
                throw SeedError(description: "PackageBuilder could not build the \(layout.rawValue) seed: \(error)")
            }
            seeds.append(try seed(layout.rawValue, bytes: readFile(output)))
        }
        if let bsdtar = findOnPath("bsdtar") {
            let output = scratch + "/seed-bsdtar-raw.pkg"
            let arguments =
                [
                    bsdtar, "--format", "xar", "--uid", "0", "--gid", "0", "--uname", "root", "--gname", "wheel",
                    "-n", "-cf", output, "-C", folder,
                ] + contentPaths
            guard run(arguments) == 0 else {
                throw SeedError(description: "\(arguments.joined(separator: " ")) failed")
            }
            seeds.append(try seed("bsdtar", bytes: normaliseTimes(try readFile(output))))
        }
        return seeds
    }

    /// The content folder's paths below its root, parents first (what bsdtar is told to store).
    static let contentPaths = [
        "ContentInfo.plist", "Contents", "Contents/data", "Contents/data/nested",
        "Contents/data/nested/level.json", "Contents/data/story.txt", "Contents/data/up.txt",
        "Contents/empty", "Contents/link.txt", "Contents/readme.txt",
    ]

    /// Writes the content folder: a plist, text files (one large enough to need several zlib slices),
    /// a nested folder, an empty folder and two symlinks that stay inside Contents/.
    static func makeContentFolder(_ folder: String) throws(SeedError) {
        do {
            try ContentFolderInitializer.create(productIdentifier: "com.example.fuzz", at: folder)
        } catch {
            throw SeedError(description: "could not create the content folder \(folder): \(error)")
        }
        for directory in ["Contents/data", "Contents/data/nested", "Contents/empty"]
        where mkdir(folder + "/" + directory, 0o755) != 0 {
            throw SeedError(description: "could not create \(folder)/\(directory)")
        }
        var story = ""
        for line in 0..<400 {
            story += "line \(line): the quick brown fox jumps over the lazy dog \(line * 7919 % 1000)\n"
        }
        let files = [
            ("Contents/readme.txt", String(repeating: "Hello from the fuzz seed.\n", count: 10)),
            ("Contents/data/nested/level.json", "{\"level\": 3, \"name\": \"nested\"}\n"),
            ("Contents/data/story.txt", story),
        ]
        for (path, text) in files {
            do {
                let file = try FileDescriptor.createExclusive(folder + "/" + path)
                try file.write(Array(text.utf8))
            } catch {
                throw SeedError(description: "could not write \(folder)/\(path): \(error)")
            }
        }
        for (path, target) in [("Contents/link.txt", "readme.txt"), ("Contents/data/up.txt", "../readme.txt")]
        where symlink(target, folder + "/" + path) != 0 {
            throw SeedError(description: "could not create the symlink \(folder)/\(path)")
        }
        for path in contentPaths.reversed() + [""] {
            var times = [timeval(tv_sec: Int(epoch), tv_usec: 0), timeval(tv_sec: Int(epoch), tv_usec: 0)]
            _ = lutimes(path.isEmpty ? folder : folder + "/" + path, &times)
        }
    }

    /// A seed from `bytes`, taken apart once so structure-aware mutators can start from its parts.
    static func seed(_ name: String, bytes: [UInt8]) throws(SeedError) -> Seed {
        guard let parts = XarSurgery.split(bytes) else {
            throw SeedError(description: "the \(name) seed is not a readable xar")
        }
        let hasPayload = EntryDataMutator.entries(TOCText(bytes: parts.tocXML)).contains { $0.name == "Payload" }
        return Seed(name: name, bytes: bytes, parts: parts, hasPayload: hasPayload)
    }

    /// Replaces every time, inode and device number in the TOC with fixed ones, then recompresses and re-digests the TOC.
    static func normaliseTimes(_ bytes: [UInt8]) throws(SeedError) -> [UInt8] {
        guard var parts = XarSurgery.split(bytes) else {
            throw SeedError(description: "bsdtar's output is not a readable xar")
        }
        var toc = TOCText(bytes: parts.tocXML)
        for name in ["creation-time", "ctime", "mtime", "atime"] {
            for leaf in toc.leaves(name).reversed() {
                toc.bytes.replaceSubrange(leaf.content, with: Array("2023-11-14T22:13:20Z".utf8))
            }
        }
        // Inode numbers differ from run to run: number them in document order instead.
        for (number, leaf) in toc.leaves("inode").enumerated().reversed() {
            toc.bytes.replaceSubrange(leaf.content, with: Array(String(number + 1).utf8))
        }
        for leaf in toc.leaves("deviceno").reversed() {
            toc.bytes.replaceSubrange(leaf.content, with: Array("1".utf8))
        }
        parts.tocXML = toc.bytes
        var normalised = XarSurgery.assemble(parts, level: 6, fixChecksum: true)
        // libarchive ends the heap with a copy of the compressed TOC's first bytes (as many as the
        // digest has); keep that trailer matching the recompressed TOC.
        let trailer = 20
        if bytes.count >= 28 + 2 * trailer, normalised.count >= 28 + 2 * trailer,
            Array(bytes[(bytes.count - trailer)...]) == Array(bytes[28..<(28 + trailer)])
        {
            normalised.replaceSubrange((normalised.count - trailer)..., with: Array(normalised[28..<(28 + trailer)]))
        }
        return normalised
    }

    /// The whole file at `path` (seeds are small).
    static func readFile(_ path: String) throws(SeedError) -> [UInt8] {
        do {
            let file = try FileDescriptor.openForReading(path)
            let size = try file.size()
            guard size <= UInt64(ByteMutator.maxInputBytes) else {
                throw SeedError(description: "\(path) is too large for a seed")
            }
            return try file.read(count: Int(size), at: 0)
        } catch let error as SeedError {
            throw error
        } catch {
            throw SeedError(description: "could not read \(path): \(error)")
        }
    }

    /// The first executable called `name` in PATH.
    static func findOnPath(_ name: String) -> String? {
        guard let path = getenv("PATH") else { return nil }
        for directory in String(cString: path).split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Runs `arguments` (program first) and returns its exit status, or -1 if it could not start.
    static func run(_ arguments: [String]) -> Int32 {
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, arguments[0], nil, nil, &argv, environ) == 0 else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return ProcessStatus(status).exitCode ?? -1
    }
}
