import Foundation
import Testing

@testable import IAPObjectStore

/// Credentials, region and endpoint found as the AWS tools find them.
@Suite struct AWSEnvironmentTests {
    /// A folder with a credentials file and a config file.
    static func files(credentials: String, config: String) throws -> (credentials: String, config: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("iapkg-aws-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let credentialsPath = folder.appendingPathComponent("credentials").path
        let configPath = folder.appendingPathComponent("config").path
        try credentials.write(toFile: credentialsPath, atomically: true, encoding: .utf8)
        try config.write(toFile: configPath, atomically: true, encoding: .utf8)
        return (credentialsPath, configPath)
    }

    static let credentialsText = """
        # keys
        [default]
        aws_access_key_id = AKIDDEFAULT
        aws_secret_access_key = default-secret

        [dev]
        aws_access_key_id=AKIDDEV
        aws_secret_access_key=dev-secret
        aws_session_token = dev-token
        """
    static let configText = """
        [default]
        region = eu-central-1

        [profile dev]
        region = ap-southeast-2
        s3 =
          endpoint_url = http://127.0.0.1:8333
        ; a comment
        [profile keys-in-config]
        aws_access_key_id = AKIDCONFIG
        aws_secret_access_key = config-secret
        endpoint_url = https://objects.example.com
        """

    @Test func theEnvironmentComesFirst() throws {
        let paths = try Self.files(credentials: Self.credentialsText, config: Self.configText)
        let environment = AWSEnvironment([
            "AWS_ACCESS_KEY_ID": "AKIDENV", "AWS_SECRET_ACCESS_KEY": "env-secret", "AWS_SESSION_TOKEN": "env-token",
            "AWS_REGION": "us-west-2", "AWS_DEFAULT_REGION": "eu-west-3", "AWS_ENDPOINT_URL": "http://localhost:9000",
            "AWS_ENDPOINT_URL_S3": "http://127.0.0.1:8333/", "AWS_PROFILE": "dev",
            "AWS_SHARED_CREDENTIALS_FILE": paths.credentials, "AWS_CONFIG_FILE": paths.config,
        ])
        let credentials = try environment.credentials()
        #expect(credentials.accessKeyID == "AKIDENV")
        #expect(credentials.sessionToken == "env-token")
        let configuration = try environment.configuration()
        #expect(configuration.region == "us-west-2")
        #expect(
            configuration.endpoint == S3Endpoint(scheme: "http", host: "127.0.0.1", port: 8333, usesPathStyle: true))
    }

    @Test func theProfileIsReadFromBothFiles() throws {
        let paths = try Self.files(credentials: Self.credentialsText, config: Self.configText)
        let files = ["AWS_SHARED_CREDENTIALS_FILE": paths.credentials, "AWS_CONFIG_FILE": paths.config]
        let dev = AWSEnvironment(files.merging(["AWS_PROFILE": "dev"]) { $1 })
        #expect(
            try dev.credentials()
                == S3Credentials(
                    accessKeyID: "AKIDDEV", secretAccessKey: "dev-secret", sessionToken: "dev-token",
                    source: "profile dev in \(paths.credentials)"))
        #expect(try dev.configuration().region == "ap-southeast-2")
        #expect(try dev.configuration().endpoint.baseURL == "http://127.0.0.1:8333")
        let standard = AWSEnvironment(files)
        #expect(try standard.credentials().accessKeyID == "AKIDDEFAULT")
        #expect(try standard.configuration().region == "eu-central-1")
        #expect(try standard.configuration().endpoint == .aws(region: "eu-central-1"))
        let inConfig = AWSEnvironment(files.merging(["AWS_PROFILE": "keys-in-config"]) { $1 })
        #expect(try inConfig.credentials().accessKeyID == "AKIDCONFIG")
        #expect(try inConfig.configuration().endpoint.baseURL == "https://objects.example.com")
        #expect(try inConfig.configuration().region == "us-east-1")
    }

    @Test func missingCredentialsSayWhereTheyWereLookedFor() throws {
        let paths = try Self.files(credentials: "", config: "")
        let environment = AWSEnvironment([
            "AWS_SHARED_CREDENTIALS_FILE": paths.credentials, "AWS_CONFIG_FILE": paths.config, "AWS_PROFILE": "nobody",
            "AWS_ACCESS_KEY_ID": "AKIDONLY",
        ])
        let error = s3Error { _ = try environment.credentials() }
        #expect(error?.kind == .invalidConfiguration)
        #expect(error?.description.contains("AWS_SECRET_ACCESS_KEY") == true)
        #expect(error?.description.contains("profile nobody") == true)
        #expect(error?.description.contains(paths.credentials) == true)
    }

    @Test(arguments: ["localhost:9000", "ftp://host", "http://", "http://host/path", "http://host:0", "http://u@host"])
    func badEndpointsAreRefused(_ url: String) {
        let error = s3Error { _ = try AWSEnvironment(["AWS_ENDPOINT_URL": url]).configuration() }
        #expect(error?.kind == .invalidConfiguration)
        #expect(error?.description.contains("AWS_ENDPOINT_URL") == true)
    }

    @Test func addressingIsPathStyleForCustomEndpointsAndDottedBuckets() throws {
        let aws = S3Endpoint.aws(region: "eu-west-1")
        #expect(aws.hostHeader(bucket: "games") == "games.s3.eu-west-1.amazonaws.com")
        #expect(aws.path(bucket: "games", key: "a b/c") == "/a%20b/c")
        #expect(aws.hostHeader(bucket: "games.example") == "s3.eu-west-1.amazonaws.com")
        #expect(aws.path(bucket: "games.example", key: nil) == "/games.example")
        let custom = try S3Endpoint(url: "http://[::1]:8333", setting: "test")
        #expect(custom.hostHeader(bucket: "games") == "[::1]:8333")
        #expect(custom.path(bucket: "games", key: "k") == "/games/k")
    }
}

/// Store URLs: `s3://BUCKET/PREFIX`.
@Suite struct S3LocationTests {
    @Test func aStoreURLNamesABucketAndAPrefix() throws {
        let location = try S3Location("s3://games-content/live/packs/")
        #expect(location.bucket == "games-content")
        #expect(location.prefix == "live/packs")
        #expect(location.key("pack/1.0/manifest.json") == "live/packs/pack/1.0/manifest.json")
        #expect(location.description == "s3://games-content/live/packs")
        let top = try S3Location("s3://games.content")
        #expect(top.prefix == "")
        #expect(top.key("pack/current.json") == "pack/current.json")
    }

    @Test(arguments: [
        "games", "s3://", "s3://ab", "s3://Games", "s3://games_content", "s3://-games", "s3://games-",
        "s3://ga..mes", "s3://192.168.1.1", "s3://games/a/../b", "s3://games/./a", "s3://games/a//b",
        "s3://games/a\u{01}b",
    ])
    func badStoreURLsAreRefused(_ text: String) {
        let error = s3Error { _ = try S3Location(text) }
        #expect(error?.kind == .invalidConfiguration)
        #expect(error?.description.contains("s3://BUCKET/PREFIX") == true)
    }
}
