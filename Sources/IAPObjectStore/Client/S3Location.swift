/// A store URL, `s3://BUCKET/PREFIX`: a bucket named by S3's rules and a key prefix of `/`-separated
/// names (none empty, `.` or `..`), kept without a leading or trailing `/`.
package struct S3Location: Sendable, Equatable, CustomStringConvertible {
    /// The bucket.
    package var bucket: String
    /// The prefix, "" for the bucket's top; objects are under `prefix + "/"` when it is not empty.
    package var prefix: String

    /// True when `text` is meant as a store URL (starts with `s3://`), valid or not.
    package static func isStoreURL(_ text: String) -> Bool { text.hasPrefix("s3://") }

    /// The location `text` names; an error says what is wrong with it.
    package init(_ text: String) throws(S3Error) {
        func invalid(_ why: String) -> S3Error {
            S3Error(
                .invalidConfiguration, operation: "read the store URL", bucket: "",
                message: "\"\(text)\" \(why); give it as s3://BUCKET or s3://BUCKET/PREFIX")
        }
        guard Self.isStoreURL(text) else { throw invalid("does not start with s3://") }
        let rest = text.dropFirst(5)
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        let bucket = String(rest[..<slash])
        if let problem = Self.bucketNameProblem(bucket) { throw invalid("has a bucket name that \(problem)") }
        var prefix = slash == rest.endIndex ? "" : String(rest[rest.index(after: slash)...])
        while prefix.hasSuffix("/") { prefix.removeLast() }
        if !prefix.isEmpty {
            for name in prefix.split(separator: "/", omittingEmptySubsequences: false) {
                if name.isEmpty { throw invalid("has an empty name (//) in its prefix") }
                if name == "." || name == ".." { throw invalid("has \"\(name)\" in its prefix") }
            }
            if prefix.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) {
                throw invalid("has a control character in its prefix")
            }
            if prefix.utf8.count > 512 { throw invalid("has a prefix over 512 bytes") }
        }
        self.bucket = bucket
        self.prefix = prefix
    }

    /// The key of `relativePath` under the prefix (`prefix/relativePath`, or `relativePath`).
    package func key(_ relativePath: String) -> String { prefix.isEmpty ? relativePath : prefix + "/" + relativePath }

    /// `s3://bucket/prefix`.
    package var description: String { "s3://\(bucket)" + (prefix.isEmpty ? "" : "/\(prefix)") }

    /// Why `name` breaks S3's bucket naming rules (3-63 characters of a-z, 0-9, `.` and `-`,
    /// starting and ending with a letter or digit, no `..`, not an IP address), or nil.
    package static func bucketNameProblem(_ name: String) -> String? {
        let bytes = Array(name.utf8)
        if bytes.count < 3 || bytes.count > 63 { return "is not 3 to 63 characters long" }
        let allowed = bytes.allSatisfy {
            ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
                || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-")
        }
        if !allowed { return "has a character other than a-z, 0-9, '.' and '-'" }
        let isAlphanumeric = { (byte: UInt8) in byte != UInt8(ascii: ".") && byte != UInt8(ascii: "-") }
        if !isAlphanumeric(bytes[0]) || !isAlphanumeric(bytes[bytes.count - 1]) {
            return "does not start and end with a letter or digit"
        }
        if name.contains("..") { return "has two dots in a row" }
        let parts = name.split(separator: ".")
        if parts.count == 4 && parts.allSatisfy({ UInt8($0) != nil }) { return "is an IP address" }
        return nil
    }
}
