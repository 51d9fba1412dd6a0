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
        let client: HTTPClient
        private let loops: MultiThreadedEventLoopGroup
        /// The executor of the client's one event loop, for the tasks that read its answers.
        let taskExecutor: LoopExecutor
        /// The client's one event loop: every connection's, and where small answers are received.
        let loop: any EventLoop
        private let token: String?
        /// How long a connection may take to open, and an answer to send its next piece.
        let timeout: TimeAmount
        let running = RunningRequests()

        /// A client for `server` that sends `Authorization: Bearer token` when `token` is given,
        /// with `connections` connections a host at most, and `timeout` seconds for a connection and
        /// between two pieces of an answer.
        init(server: URL, token: String?, timeout: Double, connections: Int) {
            self.token = token
            let wait = TimeAmount.milliseconds(Int64(max(0.001, timeout) * 1000))
            self.timeout = wait
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
            loop = loops.next()
            taskExecutor = LoopExecutor(loop)
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
        /// the receiver runs on the event loop, called by AsyncHTTPClient's delegate interface (no
        /// task and no hand-off between threads); a large body is written and hashed on the task
        /// pool while the loop reads on.
        func get(
            _ url: URL, headers: [String: String], small: Bool = true,
            receive: @escaping (HTTPEvent) throws -> Void
        ) async throws -> ResponseHead {
            if small { return try await getOnLoop(url, headers: fields(headers), receive: receive) }
            var request = HTTPClientRequest(url: url.absoluteString)
            request.method = .GET
            request.headers = fields(headers)
            let exchange = Receiver(client: client, request: request, receive: receive)
            // A task of its own, so that cancelAll (a pause, from another task) can stop it.
            let task = Task { try await exchange.run() }
            let id = running.add { task.cancel() }
            defer { running.remove(id) }
            return try await withTaskCancellationHandler {
                do {
                    return try await task.value
                } catch {
                    throw Self.failure(error, cancelled: task.isCancelled)
                }
            } onCancel: {
                task.cancel()
            }
        }

        /// The header fields of every request: no cache, no compression, the client's name, the token,
        /// then `headers`.
        func fields(_ headers: [String: String]) -> HTTPHeaders {
            var fields = HTTPHeaders()
            fields.add(name: "Cache-Control", value: "no-cache")
            fields.add(name: "Accept-Encoding", value: "identity")
            // Named as URLSession names its app: servers and their logs tell the client's requests apart.
            fields.add(name: "User-Agent", value: "IAPClient")
            if let token { fields.add(name: "Authorization", value: "Bearer \(token)") }
            for (name, value) in headers { fields.replaceOrAdd(name: name, value: value) }
            return fields
        }

        /// The error a request ends with: the receiver's own, else the transport's in words
        /// (AsyncHTTPClient ends a cancelled request with an error of its own).
        static func failure(_ error: Error, cancelled: Bool) -> Error {
            switch error {
            case let error as FetchError: return error
            case let error as StatusError: return error
            default:
                if cancelled { return TransportError.cancelled }
                return error as? TransportError ?? TransportError(error)
            }
        }
    }

    /// One request and its receiver. `@unchecked Sendable`: confined to the one task that runs the
    /// request (`run()`), which calls the receiver one piece after the other; no other task touches it.
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

    /// The requests in flight, each by the closure that cancels it, to cancel on a pause.
    /// `@unchecked Sendable`: `cancels` and `next` are read and written only under `lock`.
    final class RunningRequests: @unchecked Sendable {
        private let lock = ClientLock()
        private var cancels: [Int: @Sendable () -> Void] = [:]
        private var next = 0

        /// Remembers a request by what cancels it; returns its number.
        func add(_ cancel: @escaping @Sendable () -> Void) -> Int {
            lock.withLock {
                next += 1
                cancels[next] = cancel
                return next
            }
        }

        /// Forgets request `id`.
        func remove(_ id: Int) {
            _ = lock.withLock { cancels.removeValue(forKey: id) }
        }

        /// Cancels every request remembered.
        func cancelAll() {
            for cancel in lock.withLock({ Array(cancels.values) }) { cancel() }
        }
    }
#endif
