internal import IAPSystem

/// A client of one bucket: signed requests (SigV4) over libcurl, retried with backoff when the store
/// is busy or unreachable, credentials read again when they expire. Blocking and thread-safe: each
/// call takes a connection of its own from a pool, so threads run requests side by side.
package final class S3Client: Sendable {
    /// The bucket every request goes to.
    package let bucket: String
    /// Region, endpoint, retries.
    package let configuration: S3Configuration
    /// Where the signing keys come from.
    package let credentials: S3CredentialSource
    private let pool = CurlHandlePool()

    /// A client of `bucket`; an error when the name breaks S3's rules.
    package init(bucket: String, configuration: S3Configuration, credentials: S3CredentialSource) throws(S3Error) {
        if let problem = S3Location.bucketNameProblem(bucket) {
            throw S3Error(
                .invalidConfiguration, operation: "use the bucket", bucket: "",
                message: "the bucket name \"\(bucket)\" \(problem)")
        }
        self.bucket = bucket
        self.configuration = configuration
        self.credentials = credentials
    }

    /// A client of `location`'s bucket set up as the AWS tools would be from `environment`
    /// (the process's environment by default).
    package convenience init(
        location: S3Location, environment: AWSEnvironment = AWSEnvironment(CurrentProcess.environment)
    ) throws(S3Error) {
        let configuration = try environment.configuration()
        try self.init(
            bucket: location.bucket, configuration: configuration,
            credentials: S3CredentialSource(environment: environment, lifetime: configuration.credentialsLifetime))
    }

    /// One S3 request before signing.
    struct Operation {
        var name: String
        var method: String
        var key: String?
        var query: [SignableRequest.Field] = []
        var headers: [SignableRequest.Field] = []
        var body: HTTPBody = .empty
        /// The body's SHA-256 in hex (the empty one by default).
        var payloadHash = SigV4Signer.emptyPayloadHash
        var sink: HTTPResponseSink = .memory(limit: 16 << 20)
    }

    /// Sends `operation`, signed, and returns its 2xx response: a retryable failure is tried again
    /// after a backoff up to the policy's attempts; expired or unknown credentials are read again
    /// once; anything else is thrown at once. A streamed body cannot be sent twice: where it would
    /// be tried again, the error is thrown marked `sendAgain`, for its caller to make a new body.
    func send(_ operation: Operation) throws(S3Error) -> HTTPResponse {
        var attempt = 1
        var mayHaveLanded = false
        var refreshed = false
        while true {
            let used = try credentials.current()
            let request = signedRequest(operation, credentials: used, time: .now())
            let error: S3Error
            do {
                var response = try pool.perform(request, sink: operation.sink)
                response.earlierTryMayHaveLanded = mayHaveLanded
                if response.isSuccess { return response }
                error = S3ErrorResponse.error(response, operation: operation.name, bucket: bucket, key: operation.key)
            } catch {
                let kind: S3Error.Kind = error.isRetryable ? .unavailable : .other
                let message = "\(error.message) (\(configuration.endpoint.baseURL))"
                var failure = S3Error(
                    kind, operation: operation.name, bucket: bucket, key: operation.key, message: message)
                failure.mayHaveLanded = mayHaveLanded
                guard failure.isRetryable, attempt < configuration.retry.attempts else { throw failure }
                guard operation.body.isReplayable else { throw failure.toSendAgain }
                mayHaveLanded = true
                Self.pause(configuration.retry.delay(after: attempt))
                attempt += 1
                continue
            }
            if let code = error.code, S3ErrorResponse.refreshCodes.contains(code), !refreshed,
                credentials.refresh(after: used)
            {
                refreshed = true
                guard operation.body.isReplayable else { throw error.toSendAgain }
                continue
            }
            guard error.isRetryable, attempt < configuration.retry.attempts else {
                throw error.with(mayHaveLanded: mayHaveLanded)
            }
            guard operation.body.isReplayable else { throw error.toSendAgain }
            mayHaveLanded = mayHaveLanded || error.status.map { $0 >= 500 && $0 != 503 } ?? false
            Self.pause(configuration.retry.delay(after: attempt))
            attempt += 1
        }
    }

    /// `operation` as it goes on the wire, signed with `credentials` at `time`.
    func signedRequest(_ operation: Operation, credentials: S3Credentials, time: SigningTime) -> HTTPRequest {
        let endpoint = configuration.endpoint
        var request = SignableRequest(
            method: operation.method, path: endpoint.path(bucket: bucket, key: operation.key), query: operation.query,
            headers: [
                .init("Host", endpoint.hostHeader(bucket: bucket)),
                .init("x-amz-content-sha256", operation.payloadHash),
            ]
                + operation.headers)
        request = SigV4Signer(credentials: credentials, region: configuration.region)
            .signed(request, payloadHash: operation.payloadHash, time: time)
        let query = request.query.isEmpty ? "" : "?" + request.encodedQuery
        let url = "\(endpoint.scheme)://\(endpoint.hostHeader(bucket: bucket))\(request.path)\(query)"
        return HTTPRequest(method: operation.method, url: url, headers: request.headers, body: operation.body)
    }

    /// Waits `seconds` (a backoff between tries).
    package static func pause(_ seconds: Double) {
        let lock = ConditionLock()
        let end = MonotonicClock.seconds() + seconds
        lock.withLock {
            while MonotonicClock.seconds() < end { lock.wait(seconds: end - MonotonicClock.seconds()) }
        }
    }
}
