/// The status and header fields of an HTTP answer, as either transport (AsyncHTTPClient on
/// Linux, URLSession elsewhere) hands them over.
struct ResponseHead: Sendable {
    /// The status code (200, 206, …).
    let statusCode: Int
    /// The header fields by lowercased name (repeated fields joined with ", ").
    private let fields: [String: String]

    /// A head with `statusCode` and the header `fields` (names in any case).
    init(statusCode: Int, fields: [(name: String, value: String)]) {
        self.statusCode = statusCode
        var joined: [String: String] = [:]
        for field in fields {
            let name = field.name.lowercased()
            joined[name] = joined[name].map { $0 + ", " + field.value } ?? field.value
        }
        self.fields = joined
    }

    /// The value of the header field `name` (any case), nil when absent.
    func value(forHTTPHeaderField name: String) -> String? {
        fields[name.lowercased()]
    }

    /// The body's length from `Content-Length`, -1 when unknown.
    var expectedContentLength: Int64 {
        value(forHTTPHeaderField: "Content-Length").flatMap { Int64($0) } ?? -1
    }
}

/// What an answer delivers to its receiver: first its head, then each piece of its body (valid
/// only during the call).
enum HTTPEvent {
    case response(ResponseHead)
    case data(UnsafeRawBufferPointer)
}

/// A request that stopped without an answer: cancelled (a pause, a cancel) or cut off.
struct TransportError: Error, CustomStringConvertible {
    /// True when the request was cancelled rather than cut off.
    var cancelled: Bool
    /// What happened, for people.
    var description: String

    /// The request was cancelled.
    static let cancelled = TransportError(cancelled: true, description: "the request was cancelled")
    /// The answer ended before the bytes it announced.
    static let cutOff = TransportError(cancelled: false, description: "the connection was lost before the answer ended")
}
