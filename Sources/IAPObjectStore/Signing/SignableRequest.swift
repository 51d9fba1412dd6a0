/// A request as SigV4 signs it: method, the URI path as sent (already percent-encoded), the query
/// as decoded names and values, and the headers.
package struct SignableRequest: Sendable {
    /// One header or query parameter.
    package struct Field: Sendable, Equatable {
        /// The name, as given (headers are compared without case).
        package var name: String
        /// The value, decoded.
        package var value: String

        /// A field from its name and value.
        package init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// `GET`, `PUT`, ...
    package var method: String
    /// The path as it goes on the wire, percent-encoded once (S3 does not encode it twice).
    package var path: String
    /// The query parameters, decoded.
    package var query: [Field]
    /// The headers, `Host` among them.
    package var headers: [Field]

    /// A request from its parts.
    package init(method: String, path: String, query: [Field] = [], headers: [Field] = []) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
    }

    /// The value of the first header called `name` (any case), or nil.
    package func header(_ name: String) -> String? {
        let lowered = name.lowercased()
        return headers.first { $0.name.lowercased() == lowered }?.value
    }

    /// The query encoded as it goes on the wire, in the given order: `a=1&b=2`.
    package var encodedQuery: String {
        query.map { URIEncoding.encode($0.name) + "=" + URIEncoding.encode($0.value) }.joined(separator: "&")
    }
}
