import IAPDelivery

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One run of a download: the pointer and manifest read and checked, the update plan (the one
/// `iapkg diff` computes) against the installed version, unchanged files reused, the rest fetched
/// into a staging folder, then installed in one rename and one link swap.
struct VersionAssembly {
    let updater: ContentUpdater
    let transfers: Transfers

    /// Installs the server's current version. When a file of the version being fetched is gone
    /// (404: the server removed it after moving `current` on), starts again on the new current
    /// version, at most three times; a version is never mixed with another.
    func run() async throws(FetchError) -> FetchReport {
        let started = Date()
        let folder = ContentFolder(root: updater.folder.path)
        let lock = try folder.prepare()
        defer { lock.release() }
        var restarts = 0
        while true {
            let pointer = try await updater.readPointer(transfers)
            do {
                return try await install(pointer, folder: folder, started: started)
            } catch .http(let url, 404) {
                restarts += 1
                let now = try await updater.readPointer(transfers)
                if restarts > 3 || now.manifestSHA256 == pointer.manifestSHA256 { throw .http(url, 404) }
            }
        }
    }

    /// Brings `folder` to the version `pointer` names.
    private func install(_ pointer: CurrentPointer, folder: ContentFolder, started: Date) async throws(FetchError)
        -> FetchReport
    {
        transfers.meter.restart()
        let installed = folder.installed()
        var report = FetchReport(
            productIdentifier: updater.productIdentifier, version: pointer.version, previousVersion: installed?.version,
            action: "up-to-date", files: 0, filesFetched: 0, bytesFetched: 0, bytesResumed: 0, filesReused: 0,
            bytesReused: 0, symlinks: 0, contentsPath: updater.contentsURL.path, seconds: 0)
        if let installed, installed.version == pointer.version, installed.manifestSHA256 == pointer.manifestSHA256 {
            (report.files, report.symlinks) = installed.counts()
            report.seconds = Date().timeIntervalSince(started)
            return report
        }
        let manifestData = try await transfers.document(
            updater.url(pointer.version, "manifest.json"), limit: DeliveryDocuments.manifestLimit)
        let manifest = try DeliveryDocuments.manifest(
            manifestData, for: pointer, limit: min(ManifestRules.defaultTotalLimit, updater.maximumTotalBytes))
        let stagingPath = folder.staging(pointer.manifestSHA256)
        folder.clean(keeping: stagingPath, parts: Set(manifest.files.map(\.sha256)))
        // A run killed between renaming the version into place and swapping the link left it complete.
        let placed = folder.versions + "/" + pointer.version
        if installed?.version != pointer.version, !LocalFiles.exists(stagingPath),
            let data = FileManager.default.contents(atPath: placed + "/manifest.json"),
            Digests.sha256Hex(data) == pointer.manifestSHA256
        {
            try? LocalFiles.move(placed, to: stagingPath)
        }
        let staging = Staging(path: stagingPath)
        // Written now, so its bytes need not be held to the end (14 MB at 100,000 files).
        try staging.writeManifest(manifestData)

        // The plan: unchanged files come from the installed version (a first install has none),
        // the rest over the network, files sharing a digest once: `firsts` holds the index of
        // each digest's first file, `others` the rest of the few that repeat.
        let unchanged: Set<String> =
            installed?.manifest().map {
                Set(UpdatePlan(from: Self.items($0), to: Self.items(manifest)).unchanged.map(\.path))
            } ?? []
        var firstOf: [String: Int] = [:]
        var firsts: [Int] = []
        var others: [Int: [Int]] = [:]
        for (index, file) in manifest.files.enumerated() {
            if staging.holds(file) {
                report.filesReused += 1
                report.bytesReused += file.size
            } else if let installed, unchanged.contains(file.path),
                try staging.reuse(installed.folder + "/" + file.path, for: file)
            {
                report.filesReused += 1
                report.bytesReused += file.size
            } else {
                if let first = firstOf[file.sha256] {
                    others[first, default: []].append(index)
                } else {
                    firstOf[file.sha256] = index
                    firsts.append(index)
                }
                continue
            }
            transfers.meter.fileDone()
        }
        firstOf = [:]
        let toFetch = firsts.map { manifest.files[$0] }
        transfers.meter.plan(total: toFetch.reduce(0) { $0 + $1.size }, files: manifest.files.count)
        // Only large files are resumed from their part files (small ones are fetched whole).
        report.bytesResumed = toFetch.reduce(0) {
            $0 + ($1.size < FileTransfer.resumableSize ? 0 : Self.size(folder.parts + "/" + $1.sha256, max: $1.size))
        }
        let needed = toFetch.reduce(0) { $0 + $1.size } - report.bytesResumed
        if let free = folder.freeBytes, free < needed {
            throw .local(folder.root, "the download needs \(needed) bytes and the disk has \(free) free")
        }

        try await fetch(
            firsts.map { Group(files: manifest.files, first: $0, others: others[$0] ?? []) }, version: pointer.version,
            folder: folder, staging: staging)
        report.filesFetched = toFetch.count
        report.bytesFetched = transfers.meter.bytesFetched
        report.files = manifest.fileCount

        try staging.link(manifest.symlinks)
        report.symlinks = manifest.symlinks.count
        try LocalFiles.flush(staging.written.all, in: staging.path)
        try folder.install(staging.path, as: pointer.version, previous: installed?.version)
        report.action = "installed"
        report.seconds = Date().timeIntervalSince(started)
        return report
    }

    /// The files of a version sharing one SHA-256, by their indices in its manifest.
    struct Group: Sendable {
        let files: [VersionManifest.File]
        let first: Int
        let others: [Int]

        /// The files, the first one first.
        var all: [VersionManifest.File] { [files[first]] + others.map { files[$0] } }
    }

    /// Fetches each group (the files sharing one SHA-256), `parallelDownloads` at a time, and puts
    /// its files in the staging folder. With AsyncHTTPClient the group's own task runs on the event
    /// loop, as the small files' tasks do: a file done and the next one started are then two jobs on
    /// the thread that reads the sockets, never a wake-up of another thread; a small file's bytes,
    /// once verified, are written on a thread of its own (`BackgroundJobs`, at most 8 MiB waiting).
    /// There, small files go first through ``PipelinedFiles`` (batches of requests on a few
    /// connections) when the server is plain http without a proxy; what it gives back comes here.
    private func fetch(_ groups: [Group], version: String, folder: ContentFolder, staging: Staging)
        async throws(FetchError)
    {
        do {
            #if canImport(AsyncHTTPClient)
                let writer = BackgroundJobs(byteBudget: 8 << 20)
                do {
                    try await withTaskExecutorPreference(transfers.http.taskExecutor) {
                        let rest = try await pipelined(
                            groups, version: version, folder: folder, staging: staging, writer: writer)
                        try await fetchAll(rest, version: version, folder: folder, staging: staging, writer: writer)
                    }
                } catch {
                    try? writer.finish()
                    throw error
                }
                try writer.finish()
            #else
                try await fetchAll(groups, version: version, folder: folder, staging: staging)
            #endif
        } catch let error as FetchError {
            throw error
        } catch {
            throw .cancelled
        }
    }

    /// The task group of ``fetch(_:version:folder:staging:)``: small files on the event loop (no
    /// hand-off between threads), large ones on the task pool, where hashing and writing go on
    /// while the loop reads.
    private func fetchAll(
        _ groups: [Group], version: String, folder: ContentFolder, staging: Staging,
        writer: (any SmallFileWriting)? = nil
    ) async throws {
        let width = max(1, updater.parallelDownloads)
        // The version's URL once; each file's path appended to it in one step (its components
        // percent-encoded as one by one, without parsing the whole URL again for each).
        let versionURL = updater.url(version)
        try await withThrowingTaskGroup(of: Void.self) { group in
            var next = 0
            func start() {
                guard next < groups.count else { return }
                let files = groups[next].all
                next += 1
                let work: @Sendable () async throws -> Void = {
                    let first = files[0]
                    let part = try staging.destination(of: first, parts: folder.parts)
                    var transfer = FileTransfer(
                        transfers: transfers, file: first, url: versionURL.appendingPathComponent(first.path),
                        part: part)
                    let collected =
                        writer != nil && first.size < FileTransfer.resumableSize
                        ? CollectedBytes(capacity: first.size) : nil
                    transfer.collected = collected
                    try await transfer.run()
                    let place: @Sendable () throws -> Void = {
                        try Self.place(collected?.bytes, of: files, at: part, in: staging, meter: transfers.meter)
                    }
                    if let writer, let collected {
                        try writer.submit(bytes: collected.bytes.count, place)
                    } else {
                        try place()
                    }
                }
                #if canImport(AsyncHTTPClient)
                    let small = files[0].size < FileTransfer.resumableSize
                    group.addTask(
                        executorPreference: small ? transfers.http.taskExecutor : globalConcurrentExecutor,
                        operation: work)
                #else
                    group.addTask(operation: work)
                #endif
            }
            for _ in 0..<width { start() }
            while try await group.next() != nil { start() }
        }
    }

    /// Puts a verified file and its twins in the staging folder: `bytes` (a small file kept in
    /// memory) written at `part` first, else `part` as it was received; each counted as done.
    static func place(
        _ bytes: [UInt8]?, of files: [VersionManifest.File], at part: String, in staging: Staging, meter: ProgressMeter
    ) throws(FetchError) {
        if let bytes { try PartSink.write(bytes, to: part) }
        try staging.place(part, as: files)
        for _ in files { meter.fileDone() }
    }

    /// The files and symlinks of `manifest` as the update plan compares them.
    static func items(_ manifest: VersionManifest) -> [DeliveryItem] {
        manifest.files.map { DeliveryItem(path: $0.path, kind: "file", value: $0.sha256, size: $0.size) }
            + manifest.symlinks.map { DeliveryItem(path: $0.path, kind: "symlink", value: $0.target, size: 0) }
    }

    /// The size of the file at `path` if it is at most `max`, else 0.
    static func size(_ path: String, max: UInt64) -> UInt64 {
        let size = LocalFiles.regularSize(path) ?? 0
        return size <= max ? size : 0
    }
}
