#if !canImport(AsyncHTTPClient)
    import Foundation

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// The client's HTTP transport on Apple platforms (and in Linux builds without AsyncHTTPClient:
    /// IAPKG_NO_WEB=1, the sanitizer builds): one URLSession whose delegate streams every response to
    /// the closure its request was given, so a download is written piece by piece (never held whole in
    /// memory). `@unchecked Sendable`: `pending`, `tasks` and `session` are read and written only
    /// under `lock`; a `Pending` is reached only through `pending`, and its receiver runs on the
    /// session's serial delegate queue.
    final class HTTPExchange: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        /// A request in flight: its receiver, the first error the receiver threw, its continuation.
        private final class Pending {
            let receive: (HTTPEvent) throws -> Void
            var failure: Error?
            var response: HTTPURLResponse?
            var continuation: CheckedContinuation<HTTPURLResponse, Error>?

            init(receive: @escaping (HTTPEvent) throws -> Void) { self.receive = receive }
        }

        private let lock = NSLock()
        private var pending: [Int: Pending] = [:]
        private var tasks: [Int: URLSessionTask] = [:]
        private var session: URLSession?
        private let token: String?
        private let queue: OperationQueue

        /// A session that sends `Authorization: Bearer token` when `token` is given (`server` and
        /// `connections` are the AsyncHTTPClient transport's; URLSession reads the proxy settings itself).
        init(server: URL, token: String?, timeout: TimeInterval, connections: Int) {
            self.token = token
            queue = OperationQueue()
            queue.maxConcurrentOperationCount = 1
            super.init()
            let configuration = URLSessionConfiguration.ephemeral
            configuration.urlCache = nil
            configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
            configuration.timeoutIntervalForRequest = timeout
            configuration.httpMaximumConnectionsPerHost = 8
            session = URLSession(configuration: configuration, delegate: self, delegateQueue: queue)
        }

        /// Ends the session (its delegate, this object, is released by URLSession only then).
        func close() async {
            lock.withLock { session }?.finishTasksAndInvalidate()
        }

        /// Cancels every request in flight (each throws `URLError.cancelled` or its receiver's error).
        func cancelAll() {
            for task in lock.withLock({ Array(tasks.values) }) { task.cancel() }
        }

        /// GETs `url` with `headers`, handing the response and then each piece of the body to
        /// `receive` (on one serial queue); a receiver that throws cancels the request with that error.
        /// (`small` is the AsyncHTTPClient transport's.)
        func get(
            _ url: URL, headers: [String: String], small: Bool = true, receive: @escaping (HTTPEvent) throws -> Void
        ) async throws -> ResponseHead {
            var request = URLRequest(url: url)
            request.httpMethod = "GET"
            request.cachePolicy = .reloadIgnoringLocalCacheData
            request.setValue("no-cache", forHTTPHeaderField: "Cache-Control")
            request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
            if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
            for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
            guard let session = lock.withLock({ session }) else { throw TransportError.cancelled }
            let task = session.dataTask(with: request)
            let entry = Pending(receive: receive)
            let response = try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    lock.withLock {
                        entry.continuation = continuation
                        pending[task.taskIdentifier] = entry
                        tasks[task.taskIdentifier] = task
                    }
                    if Task.isCancelled { task.cancel() }
                    task.resume()
                }
            } onCancel: {
                task.cancel()
            }
            return Self.head(response)
        }

        /// `response` as the transports hand it over.
        static func head(_ response: HTTPURLResponse) -> ResponseHead {
            ResponseHead(
                statusCode: response.statusCode,
                fields: response.allHeaderFields.map { ("\($0.key)", "\($0.value)") })
        }

        private func entry(_ task: URLSessionTask) -> Pending? {
            lock.withLock { pending[task.taskIdentifier] }
        }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
        ) {
            guard let entry = entry(dataTask), let http = response as? HTTPURLResponse else {
                return completionHandler(.cancel)
            }
            entry.response = http
            do {
                try entry.receive(.response(Self.head(http)))
                completionHandler(.allow)
            } catch {
                entry.failure = error
                completionHandler(.cancel)
            }
        }

        /// Follows a redirect, without the download token when it leads to another origin (scheme,
        /// host or port): the gate's 307 to a presigned URL must not hand the token to the storage host.
        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
        ) {
            var next = request
            let from = task.originalRequest?.url
            let to = request.url
            if from?.scheme?.lowercased() != to?.scheme?.lowercased()
                || from?.host?.lowercased() != to?.host?.lowercased() || from?.port != to?.port
            {
                next.setValue(nil, forHTTPHeaderField: "Authorization")
            }
            completionHandler(next)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            guard let entry = entry(dataTask), entry.failure == nil else { return }
            do {
                try data.withUnsafeBytes { try entry.receive(.data($0)) }
            } catch {
                entry.failure = error
                dataTask.cancel()
            }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
            let entry = lock.withLock { () -> Pending? in
                tasks[task.taskIdentifier] = nil
                return pending.removeValue(forKey: task.taskIdentifier)
            }
            guard let entry, let continuation = entry.continuation else { return }
            if let failure = entry.failure {
                continuation.resume(throwing: failure)
            } else if let error = error as? URLError, error.code == .cancelled {
                continuation.resume(throwing: TransportError.cancelled)
            } else if let error {
                continuation.resume(throwing: TransportError(cancelled: false, description: error.localizedDescription))
            } else if let response = entry.response {
                continuation.resume(returning: response)
            } else {
                continuation.resume(
                    throwing: TransportError(cancelled: false, description: "the server sent no answer"))
            }
        }
    }
#endif
