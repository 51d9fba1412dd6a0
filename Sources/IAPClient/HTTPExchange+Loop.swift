#if canImport(AsyncHTTPClient)
    import AsyncHTTPClient
    import NIOCore
    import NIOHTTP1

    #if canImport(FoundationEssentials)
        import FoundationEssentials
    #else
        import Foundation
    #endif

    extension HTTPExchange {
        /// GETs `url` through AsyncHTTPClient's delegate interface, its receiver called on the event
        /// loop as the head and each piece arrive. Unlike `execute(_:deadline:)`, which starts a task
        /// of its own for every request on the task pool (a thread woken per file), nothing here
        /// leaves the loop: a small file's answer is read, written and hashed on one thread, as
        /// curl does. A receiver that throws fails the request with its error; the next piece is
        /// read once the receiver has taken the last one.
        func getOnLoop(_ url: URL, headers: HTTPHeaders, receive: @escaping (HTTPEvent) throws -> Void)
            async throws -> ResponseHead
        {
            let request: HTTPClient.Request
            do {
                request = try HTTPClient.Request(url: url, method: .GET, headers: headers)
            } catch {
                throw TransportError(error)
            }
            let task = client.execute(
                request: request, delegate: LoopReceiver(receive), eventLoop: .delegate(on: loop))
            let cancelled = CancelFlag()
            let id = running.add {
                cancelled.set()
                task.cancel()
            }
            defer { running.remove(id) }
            return try await withTaskCancellationHandler {
                do {
                    return try await task.futureResult.get()
                } catch {
                    throw Self.failure(error, cancelled: cancelled.isSet || Task.isCancelled)
                }
            } onCancel: {
                cancelled.set()
                task.cancel()
            }
        }
    }

    /// Whether a request was cancelled (by a pause or its task), set from any thread.
    /// `@unchecked Sendable`: `value` is read and written only under `lock`.
    private final class CancelFlag: @unchecked Sendable {
        private let lock = ClientLock()
        private var value = false

        func set() { lock.withLock { value = true } }
        var isSet: Bool { lock.withLock { value } }
    }

    /// The delegate of one request: hands the head and each body piece to the receiver, on the event
    /// loop. `@unchecked Sendable`: AsyncHTTPClient calls a delegate only on the loop it was given
    /// (`.delegate(on:)`), one call after the other, so `head` and the receiver are never
    /// touched from two threads.
    private final class LoopReceiver: HTTPClientResponseDelegate, @unchecked Sendable {
        typealias Response = ResponseHead
        private let receive: (HTTPEvent) throws -> Void
        private var head: ResponseHead?

        init(_ receive: @escaping (HTTPEvent) throws -> Void) { self.receive = receive }

        func didReceiveHead(task: HTTPClient.Task<ResponseHead>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
            let answer = ResponseHead(
                statusCode: Int(head.status.code), fields: head.headers.map { ($0.name, $0.value) })
            self.head = answer
            do {
                try receive(.response(answer))
                return task.eventLoop.makeSucceededVoidFuture()
            } catch {
                return task.eventLoop.makeFailedFuture(error)
            }
        }

        func didReceiveBodyPart(task: HTTPClient.Task<ResponseHead>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
            do {
                try buffer.withUnsafeReadableBytes { try receive(.data($0)) }
                return task.eventLoop.makeSucceededVoidFuture()
            } catch {
                return task.eventLoop.makeFailedFuture(error)
            }
        }

        func didFinishRequest(task: HTTPClient.Task<ResponseHead>) throws -> ResponseHead {
            guard let head else { throw TransportError(cancelled: false, description: "the server sent no answer") }
            return head
        }
    }
#endif
