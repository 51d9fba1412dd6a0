#if canImport(AsyncHTTPClient)
    import NIOCore
    import NIOHTTP1
    import NIOPosix

    /// One run of ``PipelinedFiles``: the files still to ask for, the connections open, and when the
    /// run is over. `@unchecked Sendable`: every mutable field is read and written only on `loop`
    /// (the connections' handlers run there; the public entry points hop onto it).
    final class PipelineRun: @unchecked Sendable {
        /// Where the connections go, and the `Host` field that names it.
        struct Origin: Sendable {
            let host: String
            let port: Int
            let hostField: String
        }

        let files: PipelinedFiles.Files
        let loop: any EventLoop
        /// Completes once every connection has closed: with the numbers of the files not taken, or
        /// the writer's failure.
        let finished: EventLoopPromise<[Int]>
        private let origin: Origin
        private let headers: HTTPHeaders
        private let timeout: TimeAmount
        private let transfers: Transfers
        private let writer: any SmallFileWriting

        private var width = 1
        private var next = 0
        private var givenBack: [Int] = []
        private var taken: [Bool]
        private var channels: [ObjectIdentifier: any Channel] = [:]
        private var live = 0
        private var strikes = 0
        private var isFinished = false
        /// True once the run stops taking files (an answer it cannot take, a pause, a failure).
        private(set) var stopped = false
        /// The writer's failure, which ends the download.
        private var failure: FetchError?

        init(
            files: PipelinedFiles.Files, origin: Origin, headers: HTTPHeaders, loop: any EventLoop,
            timeout: TimeAmount, transfers: Transfers, writer: any SmallFileWriting
        ) {
            self.files = files
            self.origin = origin
            self.headers = headers
            self.loop = loop
            self.timeout = timeout
            self.transfers = transfers
            self.writer = writer
            taken = Array(repeating: false, count: files.count)
            finished = loop.makePromise()
        }

        /// Opens `connections` connections (fewer when there are fewer files).
        func start(connections: Int) {
            loop.execute { [self] in
                width = connections
                for _ in 0..<min(connections, files.count) { connect() }
                finishIfDone()
            }
        }

        /// Stops the run (a pause or a cancel, from any thread).
        func stopFromAnyThread() {
            loop.execute { [self] in stop() }
        }

        /// Stops taking files and closes every connection; their unanswered files are given back.
        func stop() {
            stopped = true
            for channel in channels.values { channel.close(promise: nil) }
        }

        /// The next file to ask for, nil when there is none (or the run stopped).
        func take() -> Int? {
            if stopped { return nil }
            if let index = givenBack.popLast() { return index }
            guard next < files.count else { return nil }
            next += 1
            return next - 1
        }

        /// The request for file `index`.
        func request(_ index: Int) -> HTTPRequestHead {
            HTTPRequestHead(version: .http1_1, method: .GET, uri: files.target(index), headers: headers)
        }

        /// Whether an answer with `head` may be file `index`'s bytes: the download is not paused or
        /// cancelled, status 200, and the manifest's size when the answer gives its length.
        func accepts(_ head: HTTPResponseHead, for index: Int) -> Bool {
            guard (try? transfers.gate.checkOpen()) != nil, head.status == .ok else { return false }
            guard let length = head.headers.first(name: "content-length") else { return true }
            return UInt64(length) == files.file(index).size
        }

        /// File `index` came whole and verified: its bytes go to the writer.
        func completed(_ index: Int, bytes: [UInt8]) {
            taken[index] = true
            transfers.meter.receivedWhole(bytes.count)
            let place = files.place
            do {
                try writer.submit(bytes: bytes.count) { try place(index, bytes) }
            } catch {
                let written = error as? FetchError ?? .local(files.file(index).path, "cannot be written (\(error))")
                failure = failure ?? written
                stop()
            }
        }

        /// `connection`'s channel closed: its unanswered files go to another connection or back to
        /// the caller, and one is opened in its place while files remain.
        private func ended(_ channel: any Channel, _ connection: PipelinedConnection) {
            channels[ObjectIdentifier(channel)] = nil
            live -= 1
            let unanswered = connection.unanswered
            givenBack += unanswered.reversed()
            if connection.answered == 0 && !unanswered.isEmpty { strike() }
            reopen()
            finishIfDone()
        }

        /// Opens one more connection. Its end is counted when its channel's close future completes
        /// (a channel closed before its handlers saw it active never tells them it went inactive).
        private func connect() {
            live += 1
            let run = self
            let connection = NIOLoopBound(PipelinedConnection(self), eventLoop: loop)
            ClientBootstrap(group: loop)
                .connectTimeout(timeout)
                .channelOption(.socketOption(.tcp_nodelay), value: 1)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHTTPClientHandlers()
                        try channel.pipeline.syncOperations.addHandler(IdleStateHandler(readTimeout: run.timeout))
                        try channel.pipeline.syncOperations.addHandler(connection.value)
                    }
                }
                .connect(host: origin.host, port: origin.port)
                .whenComplete { result in
                    switch result {
                    case .success(let channel):
                        run.channels[ObjectIdentifier(channel)] = channel
                        channel.closeFuture.whenComplete { _ in run.ended(channel, connection.value) }
                        if run.stopped { channel.close(promise: nil) }
                    case .failure:
                        run.live -= 1
                        run.strike()
                        run.reopen()
                        run.finishIfDone()
                    }
                }
        }

        private func strike() {
            strikes += 1
            if strikes >= PipelinedFiles.strikes { stop() }
        }

        private var hasWork: Bool { !givenBack.isEmpty || next < files.count }

        private func reopen() {
            if !stopped, hasWork, live < width { connect() }
        }

        private func finishIfDone() {
            guard live == 0, !isFinished else { return }
            isFinished = true
            if let failure { return finished.fail(failure) }
            finished.succeed(taken.indices.filter { !taken[$0] })
        }
    }
#endif
