#if canImport(AsyncHTTPClient)
    import AsyncHTTPClient
    import NIOCore
    import NIOHTTP1
    import NIOPosix

    #if canImport(FoundationEssentials)
        import FoundationEssentials
    #else
        import Foundation
    #endif

    /// The client's HTTP transport on Linux: one AsyncHTTPClient (swift-nio) whose answers are read
    /// with flow control (the next body piece is read from the socket only once the receiver has
    /// taken the last one), so a download is written piece by piece and never waits in memory.
    /// Redirects are followed (at most 5); the `Authorization` header is not sent to another origin.
    /// The proxy is the one `http_proxy`, `https_proxy` and `no_proxy` name for the server's URL.
    final class HTTPExchange: Sendable {
        private let client: HTTPClient
        private let loops: MultiThreadedEventLoopGroup
        /// The executor of the client's one event loop, for the tasks that read its answers.
        let taskExecutor: LoopExecutor
        private let token: String?
        private let running = RunningRequests()

        /// A client for `server` that sends `Authorization: Bearer token` when `token` is given,
        /// with `connections` connections a host at most, and `timeout` seconds for a connection and
        /// between two pieces of an answer.
        init(server: URL, token: String?, timeout: Double, connections: Int) {
            self.token = token
            let wait = TimeAmount.milliseconds(Int64(max(0.001, timeout) * 1000))
            var configuration = HTTPClient.Configuration(
                redirectConfiguration: .follow(max: 5, allowCycles: false),
                timeout: .init(connect: wait, read: wait),
                proxy: ProxyEnvironment.current.proxy(for: server),
                decompression: .disabled)
            configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = max(8, connections)
            // A connection that cannot be made fails its request at once (AsyncHTTPClient would
            // otherwise try again until the connect timeout): the retry loop waits and tries again.
            configuration.connectionPool.retryConnectionEstablishment = false
            // One event loop for every connection: the tasks that read the answers run on it too.
            loops = MultiThreadedEventLoopGroup(numberOfThreads: 1)
            taskExecutor = LoopExecutor(loops.next())
            client = HTTPClient(eventLoopGroupProvider: .shared(loops), configuration: configuration)
        }

        /// Ends the client once its requests have ended.
        func close() async {
            try? await client.shutdown()
            try? await loops.shutdownGracefully()
        }

        /// Cancels every request in flight (each throws ``TransportError/cancelled`` or its receiver's error).
        func cancelAll() {
            running.cancelAll()
        }

        /// GETs `url` with `headers`, handing the answer's head and then each piece of its body to
        /// `receive`, in order; a receiver that throws ends the request with that error. `small`:
        /// the receiver runs on the event loop (no hand-off between threads); a large body is
        /// written and hashed on the task pool while the loop reads on.
        func get(
            _ url: URL, headers: [String: String], small: Bool = true,
            receive: @escaping (HTTPEvent) throws -> Void
        ) async throws -> ResponseHead {
            var request = HTTPClientRequest(url: url.absoluteString)
            request.method = .GET
            request.headers.add(name: "Cache-Control", value: "no-cache")
            request.headers.add(name: "Accept-Encoding", value: "identity")
            // Named as URLSession names its app: servers and their logs tell the client's requests apart.
            request.headers.add(name: "User-Agent", value: "IAPClient")
            if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
            for (name, value) in headers { request.headers.replaceOrAdd(name: name, value: value) }
            let exchange = Receiver(client: client, request: request, receive: receive)
            // A task of its own, so that cancelAll (a pause, from another task) can stop it.
            let task = Task(executorPreference: small ? taskExecutor : nil) { try await exchange.run() }
            let id = running.add(task)
            defer { running.remove(id) }
            return try await withTaskCancellationHandler {
                do {
                    return try await task.value
                } catch let error as FetchError {
                    throw error
                } catch let error as StatusError {
                    throw error
                } catch {
                    // AsyncHTTPClient ends a cancelled request with an error of its own.
                    if task.isCancelled { throw TransportError.cancelled }
                    throw error as? TransportError ?? TransportError(error)
                }
            } onCancel: {
                task.cancel()
            }
        }
    }

    /// One request and its receiver. The receiver is called only from the one task that runs the
    /// request, one piece after the other: nothing else touches it, which keeps sharing it safe.
    private struct Receiver: @unchecked Sendable {
        let client: HTTPClient
        let request: HTTPClientRequest
        let receive: (HTTPEvent) throws -> Void

        func run() async throws -> ResponseHead {
            let response = try await client.execute(request, deadline: .distantFuture)
            let head = ResponseHead(
                statusCode: Int(response.status.code), fields: response.headers.map { ($0.name, $0.value) })
            try receive(.response(head))
            for try await piece in response.body {
                try piece.withUnsafeReadableBytes { try receive(.data($0)) }
            }
            return head
        }
    }

    /// The requests in flight, to cancel on a pause.
    private final class RunningRequests: @unchecked Sendable {
        // Safe to share: `tasks` and `next` are read and written only under `lock`.
        private let lock = ClientLock()
        private var tasks: [Int: Task<ResponseHead, Error>] = [:]
        private var next = 0

        func add(_ task: Task<ResponseHead, Error>) -> Int {
            lock.withLock {
                next += 1
                tasks[next] = task
                return next
            }
        }

        func remove(_ id: Int) {
            _ = lock.withLock { tasks.removeValue(forKey: id) }
        }

        func cancelAll() {
            for task in lock.withLock({ Array(tasks.values) }) { task.cancel() }
        }
    }
#endif
