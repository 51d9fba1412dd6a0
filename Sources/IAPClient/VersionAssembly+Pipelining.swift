#if canImport(AsyncHTTPClient)
    #if canImport(FoundationEssentials)
        import FoundationEssentials
    #else
        import Foundation
    #endif

    extension VersionAssembly {
        /// Fetches the small files among `groups` through ``PipelinedFiles`` when the server is reached
        /// that way (plain http, no proxy); returns the groups still to fetch: the large ones and
        /// every small one the pipeline gave back.
        func pipelined(
            _ groups: [Group], version: String, folder: ContentFolder, staging: Staging, writer: any SmallFileWriting
        ) async throws(FetchError) -> [Group] {
            guard let origin = PipelinedFiles.origin(of: updater.server) else { return groups }
            let small = groups.indices.filter { groups[$0].files[groups[$0].first].size < FileTransfer.resumableSize }
            guard !small.isEmpty else { return groups }
            let versionURL = updater.url(version)
            let (meter, parts) = (transfers.meter, folder.parts)
            let files = PipelinedFiles.Files(
                count: small.count,
                file: { groups[small[$0]].files[groups[small[$0]].first] },
                target: { PipelinedFiles.target(of: versionURL.appendingPathComponent(groups[small[$0]].firstPath)) },
                place: { number, bytes in
                    let all = groups[small[number]].all
                    let part = try staging.destination(of: all[0], parts: parts)
                    try Self.place(bytes, of: all, at: part, in: staging, meter: meter)
                })
            let pipeline = PipelinedFiles(transfers: transfers, writer: writer, connections: updater.parallelDownloads)
            var left = Set(groups.indices)
            left.subtract(small)
            for number in try await pipeline.fetch(files, from: origin) { left.insert(small[number]) }
            return left.sorted().map { groups[$0] }
        }
    }

    extension VersionAssembly.Group {
        /// The path of the group's first file.
        var firstPath: String { files[first].path }
    }
#endif
