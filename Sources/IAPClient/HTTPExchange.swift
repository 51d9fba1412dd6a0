import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One URLSession whose delegate streams every response to the closure its request was given,
/// so a download is written piece by piece (never held whole in memory) on Linux and Apple
/// platforms alike. `@unchecked Sendable`: `pending`, `tasks` and `session` are read and written
/// only under `lock`; a `Pending` is reached only through `pending`, and its receiver runs on the
/// session's serial delegate queue.
final class HTTPExchange: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    /// What a response delivers to its receiver.
    enum Event {
        case response(HTTPURLResponse)
        case data(Data)
    }

    /// A request in flight: its receiver, the first error the receiver threw, its continuation.
    private final class Pending {
        let receive: (Event) throws -> Void
        var failure: Error?
        var response: HTTPURLResponse?
        var continuation: CheckedContinuation<HTTPURLResponse, Error>?

        init(receive: @escaping (Event) throws -> Void) { self.receive = receive }
    }

    private let lock = NSLock()
    private var pending: [Int: Pending] = [:]
    private var tasks: [Int: URLSessionTask] = [:]
    private var session: URLSession?
    private let token: String?
    private let queue: OperationQueue

    /// A session that sends `Authorization: Bearer token` when `token` is given.
    init(token: String?, timeout: TimeInterval) {
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
    func close() {
        lock.withLock { session }?.finishTasksAndInvalidate()
    }

    /// Cancels every request in flight (each throws `URLError.cancelled` or its receiver's error).
    func cancelAll() {
        for task in lock.withLock({ Array(tasks.values) }) { task.cancel() }
    }

    /// GETs `url` with `headers`, handing the response and then each piece of the body to
    /// `receive` (on one serial queue); a receiver that throws cancels the request with that error.
    func get(_ url: URL, headers: [String: String], receive: @escaping (Event) throws -> Void) async throws
        -> HTTPURLResponse
    {
        var request = URLRequest(url: url)
        request.httpMethod = "GET"
        request.cachePolicy = .reloadIgnoringLocalCacheData
        request.setValue("no-cache", forHTTPHeaderField: "Cache-Control")
        request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        guard let session = lock.withLock({ session }) else { throw URLError(.cancelled) }
        let task = session.dataTask(with: request)
        let entry = Pending(receive: receive)
        return try await withTaskCancellationHandler {
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
            try entry.receive(.response(http))
            completionHandler(.allow)
        } catch {
            entry.failure = error
            completionHandler(.cancel)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let entry = entry(dataTask), entry.failure == nil else { return }
        do {
            try entry.receive(.data(data))
        } catch {
            entry.failure = error
            dataTask.cancel()
        }
    }

    /// Follows a redirect, but sends the token only to the server it was given for: a redirect to
    /// another scheme, host or port (a gate's presigned URL of an object store) goes without
    /// `Authorization`; the other headers (a resume's `Range`) go along.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        var request = request
        let from = task.originalRequest?.url
        let to = request.url
        if from?.scheme?.lowercased() != to?.scheme?.lowercased() || from?.host?.lowercased() != to?.host?.lowercased()
            || from?.port != to?.port
        {
            request.setValue(nil, forHTTPHeaderField: "Authorization")
        }
        completionHandler(request)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        let entry = lock.withLock { () -> Pending? in
            tasks[task.taskIdentifier] = nil
            return pending.removeValue(forKey: task.taskIdentifier)
        }
        guard let entry, let continuation = entry.continuation else { return }
        if let failure = entry.failure {
            continuation.resume(throwing: failure)
        } else if let error {
            continuation.resume(throwing: error)
        } else if let response = entry.response {
            continuation.resume(returning: response)
        } else {
            continuation.resume(throwing: URLError(.badServerResponse))
        }
    }
}
