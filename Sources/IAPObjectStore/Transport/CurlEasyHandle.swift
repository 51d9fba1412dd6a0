internal import CCurl

/// One libcurl easy handle, the only owner of it: `init` throws when libcurl cannot make one,
/// `deinit` frees it. A handle keeps its connections open between transfers (reuse). Not for two
/// threads at once: `CurlHandlePool` lends each to one thread at a time.
final class CurlEasyHandle {
    private let handle: UnsafeMutableRawPointer

    /// libcurl's process-wide set-up, done once before the first handle (thread-safe through
    /// Swift's lazy static initialisation).
    private static let globalInit: CURLcode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))

    /// A new handle.
    init() throws(TransportFailure) {
        guard Self.globalInit == CURLE_OK, let handle = curl_easy_init() else {
            throw TransportFailure(message: "libcurl could not start (out of memory?)", isRetryable: false)
        }
        self.handle = handle
    }

    deinit { curl_easy_cleanup(handle) }

    /// Sends `request` and returns the response, the body going to `sink` when the status is 2xx.
    func perform(_ request: HTTPRequest, sink: HTTPResponseSink) throws(TransportFailure) -> HTTPResponse {
        curl_easy_reset(handle)
        let state = TransferState(body: request.body, sink: sink)
        let headerList = CurlHeaderList(request.headers.map { "\($0.name): \($0.value)" } + ["Expect:"])
        let statePointer = Unmanaged.passUnretained(state).toOpaque()
        var code = configure(request, headers: headerList, state: statePointer)
        if code == CURLE_OK { code = curl_easy_perform(handle) }
        withExtendedLifetime((state, headerList)) {}
        if let failure = state.failure { throw failure }
        guard code == CURLE_OK else {
            throw TransportFailure(
                message: String(cString: curl_easy_strerror(code)), isRetryable: Self.retryable.contains(code.rawValue))
        }
        return HTTPResponse(
            status: Int(iapkg_curl_response_code(handle)), headers: state.headers, body: state.memory,
            bytesWritten: state.written)
    }

    /// Sets the handle up for `request`; the first failing option's code.
    private func configure(_ request: HTTPRequest, headers: CurlHeaderList, state: UnsafeMutableRawPointer) -> CURLcode
    {
        var codes = [
            iapkg_curl_set_string(handle, CURLOPT_URL, request.url),
            iapkg_curl_set_long(handle, CURLOPT_NOSIGNAL, 1),
            iapkg_curl_set_long(handle, CURLOPT_CONNECTTIMEOUT, 10),
            // A transfer that moves under 1 byte/s for 60 s is dead; a big one may take as long as it needs.
            iapkg_curl_set_long(handle, CURLOPT_LOW_SPEED_LIMIT, 1),
            iapkg_curl_set_long(handle, CURLOPT_LOW_SPEED_TIME, 60),
            iapkg_curl_set_long(handle, CURLOPT_TCP_KEEPALIVE, 1),
            iapkg_curl_set_long(handle, CURLOPT_FOLLOWLOCATION, 0),
            iapkg_curl_set_headers(handle, headers.list),
            iapkg_curl_set_pointer(handle, CURLOPT_HEADERDATA, state),
            iapkg_curl_set_callback(handle, CURLOPT_HEADERFUNCTION, Self.headerCallback),
            iapkg_curl_set_pointer(handle, CURLOPT_WRITEDATA, state),
            iapkg_curl_set_callback(handle, CURLOPT_WRITEFUNCTION, Self.writeCallback),
        ]
        switch request.method {
        case "GET": codes.append(iapkg_curl_set_long(handle, CURLOPT_HTTPGET, 1))
        case "HEAD": codes.append(iapkg_curl_set_long(handle, CURLOPT_NOBODY, 1))
        default:
            // Every other method sends a body, maybe empty, with its length known up front.
            codes += [
                iapkg_curl_set_long(handle, CURLOPT_UPLOAD, 1),
                // 256 KiB of body per read callback and socket write (64 KiB by default): a quarter
                // of the calls, and at most 8 MiB over 32 requests in flight.
                iapkg_curl_set_long(handle, CURLOPT_UPLOAD_BUFFERSIZE, 256 << 10),
                iapkg_curl_set_string(handle, CURLOPT_CUSTOMREQUEST, request.method),
                iapkg_curl_set_offset(handle, CURLOPT_INFILESIZE_LARGE, curl_off_t(request.body.count)),
                iapkg_curl_set_pointer(handle, CURLOPT_READDATA, state),
                iapkg_curl_set_callback(handle, CURLOPT_READFUNCTION, Self.readCallback),
                iapkg_curl_set_pointer(handle, CURLOPT_SEEKDATA, state),
                iapkg_curl_set_seek_callback(handle, Self.seekCallback),
            ]
        }
        return codes.first { $0 != CURLE_OK } ?? CURLE_OK
    }

    /// Failures worth another try: no connection, a timeout, a connection cut mid-way.
    private static let retryable: Set<UInt32> = [
        CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_CONNECT, CURLE_OPERATION_TIMEDOUT, CURLE_SEND_ERROR,
        CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE, CURLE_SSL_CONNECT_ERROR, CURLE_HTTP2,
        CURLE_HTTP2_STREAM, CURLE_SEND_FAIL_REWIND,
    ].map(\.rawValue).reduce(into: []) { $0.insert($1) }

    private static let headerCallback: iapkg_curl_data_callback = { buffer, size, count, user in
        guard let buffer, let user else { return 0 }
        let state = Unmanaged<TransferState>.fromOpaque(user).takeUnretainedValue()
        let bytes = UnsafeRawBufferPointer(start: buffer, count: size * count)
        state.receiveHeader(String(decoding: bytes, as: UTF8.self))
        return size * count
    }

    private static let writeCallback: iapkg_curl_data_callback = { buffer, size, count, user in
        guard let buffer, let user else { return 0 }
        let state = Unmanaged<TransferState>.fromOpaque(user).takeUnretainedValue()
        return state.receive(UnsafeRawBufferPointer(start: buffer, count: size * count)) ? size * count : 0
    }

    /// libcurl sends a request again on a new connection when the reused one turns out closed (a
    /// store closes idle connections): the body starts over from where it asks.
    private static let seekCallback: iapkg_curl_seek_callback = { user, offset, origin in
        guard let user, origin == SEEK_SET, offset >= 0 else { return CURL_SEEKFUNC_CANTSEEK }
        let state = Unmanaged<TransferState>.fromOpaque(user).takeUnretainedValue()
        return state.rewind(to: UInt64(offset)) ? CURL_SEEKFUNC_OK : CURL_SEEKFUNC_FAIL
    }

    private static let readCallback: iapkg_curl_data_callback = { buffer, size, count, user in
        guard let buffer, let user else { return Int(CURL_READFUNC_ABORT) }
        let state = Unmanaged<TransferState>.fromOpaque(user).takeUnretainedValue()
        return state.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: size * count))
            ?? Int(CURL_READFUNC_ABORT)
    }
}

/// A `curl_slist` of header lines, the only owner of it: freed in `deinit`.
final class CurlHeaderList {
    private(set) var list: UnsafeMutablePointer<curl_slist>?

    /// The list of `lines`, in order.
    init(_ lines: [String]) {
        for line in lines {
            guard let longer = curl_slist_append(list, line) else { continue }
            list = longer
        }
    }

    deinit { curl_slist_free_all(list) }
}
