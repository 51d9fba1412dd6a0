/// Where requests go: scheme, host and port, and whether the bucket is in the path
/// (`http://host:8333/bucket/key`, any custom endpoint) or in the host name
/// (`https://bucket.s3.eu-west-1.amazonaws.com/key`, AWS itself).
package struct S3Endpoint: Sendable, Equatable {
    /// `http` or `https`.
    package var scheme: String
    /// The host name or address (an IPv6 address in brackets).
    package var host: String
    /// The port, or nil for the scheme's own.
    package var port: Int?
    /// True for path-style addressing.
    package var usesPathStyle: Bool

    /// AWS's own endpoint for `region`, virtual-hosted.
    package static func aws(region: String) -> S3Endpoint {
        S3Endpoint(scheme: "https", host: "s3.\(region).amazonaws.com", port: nil, usesPathStyle: false)
    }

    /// An endpoint from its parts.
    package init(scheme: String, host: String, port: Int?, usesPathStyle: Bool) {
        self.scheme = scheme
        self.host = host
        self.port = port
        self.usesPathStyle = usesPathStyle
    }

    /// A custom endpoint (`AWS_ENDPOINT_URL`): `http(s)://host[:port]`, path-style; `setting` names
    /// where it came from in the error.
    package init(url: String, setting: String) throws(S3Error) {
        func invalid(_ why: String) -> S3Error {
            S3Error(
                .invalidConfiguration, operation: "read the endpoint", bucket: "",
                message: "\(setting) is \"\(url)\": \(why); give it as http://host:port or https://host")
        }
        let scheme: String
        if url.hasPrefix("https://") {
            scheme = "https"
        } else if url.hasPrefix("http://") {
            scheme = "http"
        } else {
            throw invalid("it does not start with http:// or https://")
        }
        var rest = Substring(url.dropFirst(scheme.count + 3))
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard !rest.isEmpty, !rest.contains("/"), !rest.contains("?"), !rest.contains("@"), !rest.contains(" ")
        else { throw invalid("only a scheme, a host and a port are allowed") }
        var host = String(rest)
        var port: Int?
        if let colon = rest.lastIndex(of: ":"), !rest[colon...].contains("]") {
            guard let number = Int(rest[rest.index(after: colon)...]), (1...65535).contains(number) else {
                throw invalid("the port is not a number from 1 to 65535")
            }
            port = number
            host = String(rest[..<colon])
        }
        guard !host.isEmpty else { throw invalid("it names no host") }
        self.init(scheme: scheme, host: host, port: port, usesPathStyle: true)
    }

    /// `http://host:port`, as the endpoint was given.
    package var baseURL: String { "\(scheme)://" + hostHeader(bucket: nil) }

    /// The `Host` header for a request to `bucket` (nil: to the endpoint itself).
    package func hostHeader(bucket: String?) -> String {
        var host = self.host
        if let bucket, !usesPathStyle(for: bucket) { host = bucket + "." + host }
        if let port { host += ":\(port)" }
        return host
    }

    /// The URI path, encoded, for `key` (nil: the bucket itself) in `bucket`.
    package func path(bucket: String, key: String?) -> String {
        let keyPath = key.map { "/" + URIEncoding.encodePath($0) } ?? "/"
        guard usesPathStyle(for: bucket) else { return keyPath }
        return "/" + bucket + (key == nil ? "" : keyPath)
    }

    /// Path-style for a custom endpoint, and for a bucket name with a dot (a virtual host name with a
    /// dot does not match AWS's wildcard certificate).
    private func usesPathStyle(for bucket: String) -> Bool { usesPathStyle || bucket.contains(".") }
}
