import HTTPTypes
import Hummingbird
import IAPPurchase
import Logging
import NIOCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The gate over HTTP/1.1 (Hummingbird on swift-nio): `POST /v1/authorize`, `GET /v1/check`,
/// `POST /v1/notifications`, `GET /v1/health`; one JSON log line per request on stdout; request bodies bounded in size and
/// time, idle connections closed; SIGTERM or SIGINT stops taking connections, lets the requests in
/// hand finish, and returns.
package struct GateServer: Sendable {
    /// How long a request body may take to arrive.
    package static let bodyTimeout = Duration.seconds(10)
    /// How long a connection may stay idle.
    package static let idleTimeout = TimeAmount.seconds(30)

    /// The decisions.
    package let gate: Gate
    /// The address to listen on.
    package let host: String
    /// The port (0: any free port, printed once listening).
    package let port: Int

    /// A server for `gate` on `host:port`.
    package init(gate: Gate, host: String, port: Int) {
        self.gate = gate
        self.host = host
        self.port = port
    }

    /// Serves until SIGTERM or SIGINT; `onListening` gets the bound port.
    package func run(onListening: @escaping @Sendable (Int) -> Void = { _ in }) async throws {
        let router = Router()
        router.add(middleware: RequestLog())
        let gate = self.gate
        router.post("/v1/authorize") { request, _ -> Response in
            var request = request
            let body: [UInt8]
            do {
                body = try await Self.collect(&request, limit: Gate.maxBodySize)
            } catch {
                return Self.response(
                    .refusal(413, "request-too-large", "the request body is over \(Gate.maxBodySize) bytes or too slow")
                )
            }
            return Self.response(await gate.authorize(body: body))
        }
        router.post("/v1/notifications") { request, _ -> Response in
            var request = request
            let limit = NotificationVerifier.maxBodyLength
            guard let body = try? await Self.collect(&request, limit: limit) else {
                return Self.response(
                    .refusal(413, "request-too-large", "the request body is over \(limit) bytes or too slow"))
            }
            return Self.response(gate.notify(body: body))
        }
        router.get("/v1/check") { request, _ -> Response in
            let uri = request.headers[HTTPField.Name("X-Original-URI")!]
            let authorization = request.headers[values: .authorization]
            return Self.response(gate.check(originalURI: uri, authorization: authorization))
        }
        router.get("/v1/health") { _, _ -> Response in
            Self.response(
                GateAnswer(status: 200, code: "ok", body: Array("{\"schemaVersion\":1,\"status\":\"ok\"}\n".utf8)))
        }
        var logger = Logger(label: "iapkg-gate", factory: { StreamLogHandler.standardError(label: $0) })
        logger.logLevel = .error
        let app = Application(
            router: router,
            server: .http1(configuration: .init(idleTimeout: Self.idleTimeout)),
            configuration: .init(address: .hostname(host, port: port), serverName: nil),
            onServerRunning: { channel in onListening(channel.localAddress?.port ?? 0) },
            logger: logger)
        try await app.runService()
    }

    /// The request's body, at most `limit` bytes, arriving within `bodyTimeout`.
    static func collect(_ request: inout Request, limit: Int) async throws -> [UInt8] {
        let body = request.body
        return try await withThrowingTaskGroup(of: [UInt8]?.self) { group in
            group.addTask {
                var buffer = try await body.collect(upTo: limit)
                return buffer.readBytes(length: buffer.readableBytes) ?? []
            }
            group.addTask {
                try await Task.sleep(for: bodyTimeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let bytes = first else { throw CancellationError() }
            return bytes
        }
    }

    /// `answer` as an HTTP response: JSON, never stored by a cache, its code in `IAPKG-Gate-Code`.
    static func response(_ answer: GateAnswer) -> Response {
        var headers = HTTPFields()
        headers[.cacheControl] = "no-store"
        headers[HTTPField.Name("IAPKG-Gate-Code")!] = answer.code
        if let product = answer.product { headers[HTTPField.Name("IAPKG-Gate-Product")!] = product }
        if answer.status == 401 { headers[.wwwAuthenticate] = "Bearer" }
        if !answer.body.isEmpty { headers[.contentType] = "application/json" }
        return Response(
            status: HTTPResponse.Status(code: answer.status), headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body)))
    }
}
