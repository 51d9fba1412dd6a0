package import IAPSystem

/// What a request sends after its headers.
package enum HTTPBody: Sendable {
    /// Nothing (`Content-Length: 0` for methods that send a body).
    case empty
    /// Bytes in memory.
    case bytes([UInt8])
    /// `length` bytes of a file from `offset`, read as they are sent.
    case file(FileDescriptor, offset: UInt64, length: UInt64)
    /// `length` bytes made by another thread as they are sent: read once, so a request carrying
    /// it is never sent again (its sender makes a new stream instead).
    case stream(any HTTPBodyStream, length: UInt64)

    /// The number of bytes sent.
    package var count: UInt64 {
        switch self {
        case .empty: 0
        case .bytes(let bytes): UInt64(bytes.count)
        case .file(_, _, let length), .stream(_, let length): length
        }
    }

    /// True when the body can be sent again from its start (every body but a stream).
    package var isReplayable: Bool {
        if case .stream = self { return false }
        return true
    }
}

/// A request body produced while it is sent.
package protocol HTTPBodyStream: AnyObject, Sendable {
    /// Fills the start of `buffer` with the next bytes, waiting for them; returns how many (0: the
    /// body ended). Throws when they cannot come: the request is then cut off, never completed.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

/// Where a successful response's body goes (an error's body always goes to memory, for its XML).
package enum HTTPResponseSink: Sendable {
    /// Into memory, at most `limit` bytes (more is an error, not a cut).
    case memory(limit: Int)
    /// Into a file from `offset`, written in place (`pwrite`), so a retry writes the same bytes again.
    case file(FileDescriptor, offset: UInt64)
}

/// One HTTP request for the transport: already signed, headers final.
package struct HTTPRequest: Sendable {
    /// `GET`, `PUT`, `HEAD`, ...
    package var method: String
    /// The whole URL, query included.
    package var url: String
    /// The header lines, `Host` among them.
    package var headers: [SignableRequest.Field]
    /// What follows the headers.
    package var body: HTTPBody

    /// A request from its parts.
    package init(method: String, url: String, headers: [SignableRequest.Field], body: HTTPBody) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// The response: status, headers (names lower-cased, the last of a repeated one kept) and, for a
/// memory sink or an error, the body.
package struct HTTPResponse: Sendable {
    /// The HTTP status.
    package var status: Int
    /// The headers, names lower-cased.
    package var headers: [String: String]
    /// The body when it went to memory.
    package var body: [UInt8]
    /// The body's bytes written to the file sink.
    package var bytesWritten: UInt64
    /// True when an earlier try of the same request may have reached the store (its answer lost).
    package var earlierTryMayHaveLanded = false

    /// True for 2xx.
    package var isSuccess: Bool { (200..<300).contains(status) }
}

/// A request that got no HTTP response: libcurl's error, or the body could not be read or written.
package struct TransportFailure: Error, Sendable, Equatable {
    /// libcurl's error text, or what failed here.
    package var message: String
    /// True when trying again may help (a refused connection, a timeout, a reset).
    package var isRetryable: Bool

    /// A failure from its parts.
    package init(message: String, isRetryable: Bool) {
        self.message = message
        self.isRetryable = isRetryable
    }
}
