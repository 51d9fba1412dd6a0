#if canImport(AsyncHTTPClient)
    import IAPDelivery
    import NIOCore
    import NIOHTTP1

    #if canImport(FoundationEssentials)
        import FoundationEssentials
    #else
        import Foundation
    #endif

    /// A version's small files over HTTP/1.1 pipelining: each of a few keep-alive connections sends
    /// its GETs in batches (one socket write for up to ``depth`` requests) and reads the answers in
    /// order, as curl's and the fetch floor's plain connections do without AsyncHTTPClient's
    /// per-request state machines (about half of what a small file cost the client). Each answer is
    /// taken only whole, with status 200 and the manifest's size and SHA-256; it is then written
    /// and placed on the writer's thread like any small file.
    ///
    /// Best effort by design: the first answer that is not such a file (a redirect to presigned
    /// URLs, a 404 after `current` moved, a 5xx, another size or digest), a pause or a cancel stops
    /// every connection, and the files not taken go back to the caller, which fetches them one
    /// request each with the usual retries and refusals. A connection the server closes (its
    /// keep-alive limit, an idle timeout) gives its unanswered requests back and is opened again;
    /// three that close before any answer stop the pipeline.
    struct PipelinedFiles {
        /// The small files to fetch, by number (`0..<count`): each file's manifest entry, its request
        /// target, and what its verified bytes become. Made on demand from the caller's own lists,
        /// so 100,000 files cost the run no more than their numbers.
        struct Files: Sendable {
            let count: Int
            let file: @Sendable (Int) -> VersionManifest.File
            /// The request target: the file's URL path, percent-encoded, and its query.
            let target: @Sendable (Int) -> String
            /// Writes the verified bytes and places the file and its twins (run on the writer's thread).
            let place: @Sendable (Int, [UInt8]) throws -> Void
        }

        /// Requests a connection keeps in flight once its first answer was a whole file (one before).
        static let depth = 16
        /// Connections that may close before any answer before the pipeline stops.
        static let strikes = 3

        let transfers: Transfers
        let writer: any SmallFileWriting
        let connections: Int

        /// Where `server` is reached this way, or nil: plain `http` to a host no proxy stands
        /// before, with no user in the URL (TLS, proxies and a URL's credentials stay with
        /// AsyncHTTPClient).
        static func origin(of server: URL) -> PipelineRun.Origin? {
            guard server.scheme?.lowercased() == "http", let host = server.host, !host.isEmpty, server.user == nil,
                ProxyEnvironment.current.proxy(for: server) == nil
            else { return nil }
            let bare = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
            let named = bare.contains(":") ? "[\(bare)]" : bare
            let port = server.port ?? 80
            return .init(host: bare, port: port, hostField: server.port == nil ? named : "\(named):\(port)")
        }

        /// The request target of `url`: its path, percent-encoded, and its query.
        static func target(of url: URL) -> String {
            let path = url.path(percentEncoded: true)
            let query = url.query(percentEncoded: true).map { "?" + $0 } ?? ""
            return (path.isEmpty ? "/" : path) + query
        }

        /// Fetches what it can of `files` from `origin`; returns the numbers of the files it did not
        /// take (to be fetched one request each). Throws the writer's failure, or `.cancelled`.
        func fetch(_ files: Files, from origin: PipelineRun.Origin) async throws(FetchError) -> [Int] {
            guard files.count > 0 else { return [] }
            try await transfers.gate.pass()
            let http = transfers.http
            var headers = http.fields([:])
            headers.replaceOrAdd(name: "Host", value: origin.hostField)
            let run = PipelineRun(
                files: files, origin: origin, headers: headers, loop: http.loop, timeout: http.timeout,
                transfers: transfers, writer: writer)
            let id = http.running.add { run.stopFromAnyThread() }
            defer { http.running.remove(id) }
            do {
                return try await withTaskCancellationHandler {
                    run.start(connections: max(1, connections))
                    return try await run.finished.futureResult.get()
                } onCancel: {
                    run.stopFromAnyThread()
                }
            } catch let error as FetchError {
                throw error
            } catch {
                throw .cancelled
            }
        }
    }
#endif
