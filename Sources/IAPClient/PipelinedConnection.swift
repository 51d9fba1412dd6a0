#if canImport(AsyncHTTPClient)
    import NIOCore
    import NIOHTTP1

    /// One keep-alive connection of a ``PipelineRun``: asks for files in batches and takes their
    /// answers in order (HTTP/1.1 answers pipelined requests in the order they were sent). It starts
    /// with one request in flight, and keeps up to ``PipelinedFiles/depth`` once an answer came
    /// whole, topping up when half have been answered, so one write carries many requests. An
    /// answer it cannot take stops the whole run; when the connection has closed, the run takes its
    /// unanswered files back.
    final class PipelinedConnection: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = HTTPClientResponsePart
        typealias OutboundOut = HTTPClientRequestPart

        private let run: PipelineRun
        /// The files asked for and not yet answered, in the order they were asked for.
        private var waiting = CircularBuffer<Int>()
        private var window = 1
        /// Answers taken whole on this connection.
        private(set) var answered = 0
        private var body: [UInt8] = []
        private var hasher = SHA256Stream()
        private var reading = false
        private var lastAnswer = false

        init(_ run: PipelineRun) { self.run = run }

        func channelActive(context: ChannelHandlerContext) {
            send(context)
            context.fireChannelActive()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                guard let index = waiting.first, !reading, run.accepts(head, for: index) else { return stop(context) }
                // A server that ends the connection after its first answer (HTTP/1.0, `Connection:
                // close`) takes no batches: this file is taken, the rest go one request each.
                lastAnswer = !head.isKeepAlive && answered == 0
                if head.isKeepAlive { window = PipelinedFiles.depth }
                reading = true
                body = []
                body.reserveCapacity(Int(run.files.file(index).size))
                hasher = SHA256Stream()
            case .body(let piece):
                guard reading, let index = waiting.first,
                    UInt64(body.count + piece.readableBytes) <= run.files.file(index).size
                else { return stop(context) }
                piece.withUnsafeReadableBytes {
                    body.append(contentsOf: $0)
                    hasher.update($0)
                }
            case .end:
                guard reading, let index = waiting.first else { return stop(context) }
                reading = false
                let file = run.files.file(index)
                guard UInt64(body.count) == file.size, hasher.finishHex() == file.sha256 else { return stop(context) }
                waiting.removeFirst()
                answered += 1
                run.completed(index, bytes: body)
                body = []
                if lastAnswer { return stop(context) }
                send(context)
            }
        }

        /// The files asked for and not answered (when the connection has closed: to be asked again).
        var unanswered: [Int] { Array(waiting) }

        func errorCaught(context: ChannelHandlerContext, error: Error) {
            context.close(promise: nil)
        }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if event is IdleStateHandler.IdleStateEvent {
                // No answer within the timeout: the files go back, and this connection ends.
                context.close(promise: nil)
            } else {
                context.fireUserInboundEventTriggered(event)
            }
        }

        /// Asks for more files once half the window has been answered, in one write; closes the
        /// connection when nothing is waiting and nothing is left to ask for.
        private func send(_ context: ChannelHandlerContext) {
            guard !run.stopped else { return context.close(promise: nil) }
            guard waiting.count <= window / 2 else { return }
            var sent = false
            while waiting.count < window, let index = run.take() {
                waiting.append(index)
                context.write(wrapOutboundOut(.head(run.request(index))), promise: nil)
                context.write(wrapOutboundOut(.end(nil)), promise: nil)
                sent = true
            }
            if sent {
                context.flush()
            } else if waiting.isEmpty {
                context.close(promise: nil)
            }
        }

        /// An answer that is not the file asked for: the run stops, and every file not taken goes
        /// back to the one-request-each path, which judges the answer as it always does.
        private func stop(_ context: ChannelHandlerContext) {
            reading = false
            run.stop()
            context.close(promise: nil)
        }
    }
#endif
