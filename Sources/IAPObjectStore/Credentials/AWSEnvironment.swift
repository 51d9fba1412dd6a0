internal import IAPSystem

/// The settings as the AWS CLI and SDKs read them: environment variables first, then the profile
/// (`AWS_PROFILE`, else `default`) in `~/.aws/credentials` and `~/.aws/config`
/// (`AWS_SHARED_CREDENTIALS_FILE`, `AWS_CONFIG_FILE`).
package struct AWSEnvironment: Sendable {
    /// The environment variables read.
    package var variables: [String: String]

    /// The settings in `variables` (the process's environment, or a test's).
    package init(_ variables: [String: String]) { self.variables = variables }

    /// The profile named by `AWS_PROFILE`, else `default`.
    package var profile: String { value("AWS_PROFILE") ?? "default" }

    /// The configuration: region from `AWS_REGION`, `AWS_DEFAULT_REGION` or the profile's `region`
    /// (else `us-east-1`); endpoint from `AWS_ENDPOINT_URL_S3`, `AWS_ENDPOINT_URL`, the profile's
    /// `s3 = endpoint_url` or `endpoint_url` (path-style), else AWS's own (virtual-hosted).
    package func configuration() throws(S3Error) -> S3Configuration {
        let config = try AWSSharedFile.read(configPath).configProfile(profile) ?? [:]
        let region = value("AWS_REGION") ?? value("AWS_DEFAULT_REGION") ?? config["region"] ?? "us-east-1"
        let endpoint: S3Endpoint
        if let url = value("AWS_ENDPOINT_URL_S3") {
            endpoint = try S3Endpoint(url: url, setting: "AWS_ENDPOINT_URL_S3")
        } else if let url = value("AWS_ENDPOINT_URL") {
            endpoint = try S3Endpoint(url: url, setting: "AWS_ENDPOINT_URL")
        } else if let url = config["s3.endpoint_url"] ?? config["endpoint_url"] {
            endpoint = try S3Endpoint(url: url, setting: "endpoint_url of profile \(profile) in \(configPath)")
        } else {
            endpoint = .aws(region: region)
        }
        return S3Configuration(region: region, endpoint: endpoint)
    }

    /// The credentials: `AWS_ACCESS_KEY_ID` and `AWS_SECRET_ACCESS_KEY` (with `AWS_SESSION_TOKEN`),
    /// else the profile's keys in the credentials file, else what its `credential_process` prints,
    /// else its keys in the config file.
    package func credentials() throws(S3Error) -> S3Credentials {
        if let key = value("AWS_ACCESS_KEY_ID"), let secret = value("AWS_SECRET_ACCESS_KEY") {
            return S3Credentials(
                accessKeyID: key, secretAccessKey: secret, sessionToken: value("AWS_SESSION_TOKEN"),
                source: "the environment (AWS_ACCESS_KEY_ID)")
        }
        let places: [(String, [String: String]?)] = [
            (credentialsPath, try AWSSharedFile.read(credentialsPath).credentialsProfile(profile)),
            (configPath, try AWSSharedFile.read(configPath).configProfile(profile)),
        ]
        // As the AWS CLI: the credentials file's keys, then a credential_process, then the config file's keys.
        if let keys = Self.keys(in: places[0].1, from: "profile \(profile) in \(credentialsPath)") { return keys }
        for (path, settings) in places {
            if let command = settings?["credential_process"] {
                return try CredentialProcess.credentials(command, from: "profile \(profile) in \(path)")
            }
        }
        if let keys = Self.keys(in: places[1].1, from: "profile \(profile) in \(configPath)") { return keys }
        throw S3Error(
            .invalidConfiguration, operation: "find credentials", bucket: "",
            message: "no credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or give profile \(profile) "
                + "aws_access_key_id and aws_secret_access_key (or a credential_process) in \(credentialsPath) (AWS_PROFILE picks the profile)"
        )
    }

    /// What the credentials and config files look like now (each one's size and modification time,
    /// or its absence): a credentials source reads them again when this changes.
    package func settingsStamp() -> String {
        [credentialsPath, configPath].map { path in
            guard let status = FileSystem.status(path) else { return "-" }
            return "\(status.size):\(status.modificationTime).\(status.modificationNanoseconds)"
        }.joined(separator: " ")
    }

    /// The key pair (and session token) a profile's `settings` hold, if they hold one.
    private static func keys(in settings: [String: String]?, from place: String) -> S3Credentials? {
        guard let settings, let key = settings["aws_access_key_id"], let secret = settings["aws_secret_access_key"]
        else { return nil }
        return S3Credentials(
            accessKeyID: key, secretAccessKey: secret, sessionToken: settings["aws_session_token"], source: place)
    }

    /// `AWS_SHARED_CREDENTIALS_FILE`, else `~/.aws/credentials`.
    package var credentialsPath: String { value("AWS_SHARED_CREDENTIALS_FILE") ?? home + "/.aws/credentials" }

    /// `AWS_CONFIG_FILE`, else `~/.aws/config`.
    package var configPath: String { value("AWS_CONFIG_FILE") ?? home + "/.aws/config" }

    private var home: String { value("HOME") ?? "/root" }

    /// A variable's value; unset and empty are the same, as the AWS tools treat them.
    private func value(_ name: String) -> String? {
        guard let value = variables[name], !value.isEmpty else { return nil }
        return value
    }
}
