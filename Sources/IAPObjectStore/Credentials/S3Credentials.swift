/// An access key, its secret and, for temporary credentials, the session token. Its description
/// names the key ID's last four characters only: no secret ever reaches a message or a log.
package struct S3Credentials: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    /// `AWS_ACCESS_KEY_ID`, `aws_access_key_id`.
    package var accessKeyID: String
    /// `AWS_SECRET_ACCESS_KEY`, `aws_secret_access_key`: never printed.
    package var secretAccessKey: String
    /// `AWS_SESSION_TOKEN`, `aws_session_token`: never printed; nil for long-term keys.
    package var sessionToken: String?
    /// Where these were read from ("environment", "profile dev in /root/.aws/credentials"), for messages.
    package var source: String
    /// When they stop working, in seconds since 1970 (a `credential_process`'s `Expiration`); nil
    /// when not known.
    package var expiration: Int64?

    /// Credentials from their parts.
    package init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil, source: String = "given") {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
        self.source = source
    }

    /// The key ID's last four characters and where it came from; never the secret or the token.
    package var description: String {
        "access key …\(accessKeyID.suffix(4)) from \(source)" + (sessionToken == nil ? "" : " (with a session token)")
    }

    /// The same as `description`, so `dump` and string interpolation in a debugger show no secret either.
    package var debugDescription: String { description }
}
