internal import IAPSystem

/// Easy handles lent to one thread at a time and kept for the next request, so connections are
/// reused. `@unchecked Sendable`: `idle` is read and written only while holding `lock`, and a handle
/// taken out of it belongs to the one thread that took it until it is given back.
final class CurlHandlePool: @unchecked Sendable {
    private let lock = ConditionLock()
    private var idle: [CurlEasyHandle] = []
    private let maximumIdle: Int

    /// A pool keeping at most `maximumIdle` handles between requests.
    init(maximumIdle: Int = 16) { self.maximumIdle = maximumIdle }

    /// Sends `request` on an idle handle (or a new one).
    func perform(_ request: HTTPRequest, sink: HTTPResponseSink) throws(TransportFailure) -> HTTPResponse {
        let taken = lock.withLock { idle.popLast() }
        let handle: CurlEasyHandle
        if let taken { handle = taken } else { handle = try CurlEasyHandle() }
        defer { lock.withLock { if idle.count < maximumIdle { idle.append(handle) } } }
        return try handle.perform(request, sink: sink)
    }
}
