import HTTPTypes
import Hummingbird
import IAPSystem

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One JSON line per request on stdout: `time`, `method`, `path` (without its query string),
/// `status`, `code`, `product`, `uri` (for checks: the original URI's path, without its query
/// string) and `ms`. Never a token, an Authorization header or a transaction.
struct RequestLog<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        let start = ContinuousClock.now
        let uri = request.headers[HTTPField.Name("X-Original-URI")!]
        let response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            Self.write(
                request: request, status: error.status.code, code: "http-\(error.status.code)", product: nil, uri: uri,
                since: start)
            throw error
        } catch {
            Self.write(request: request, status: 500, code: "internal-error", product: nil, uri: uri, since: start)
            throw error
        }
        Self.write(
            request: request, status: response.status.code,
            code: response.headers[HTTPField.Name("IAPKG-Gate-Code")!] ?? "unrouted",
            product: response.headers[HTTPField.Name("IAPKG-Gate-Product")!], uri: uri, since: start)
        return response
    }

    /// Writes the line.
    static func write(
        request: Request, status: Int, code: String, product: String?, uri: String?,
        since start: ContinuousClock.Instant
    ) {
        let elapsed = ContinuousClock.now - start
        let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        var line = Array("{\"code\":".utf8)
        JSONWriter.append(code, to: &line)
        line += Array(",\"method\":".utf8)
        JSONWriter.append(request.method.rawValue, to: &line)
        line += Array(",\"ms\":\(Double(Int(ms * 1000)) / 1000),\"path\":".utf8)
        JSONWriter.append(String(request.uri.path.prefix(512)), to: &line)
        if let product {
            line += Array(",\"product\":".utf8)
            JSONWriter.append(product, to: &line)
        }
        line += Array(",\"status\":\(status),\"time\":".utf8)
        JSONWriter.append(Date().formatted(.iso8601), to: &line)
        if let uri {
            let path = uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
            line += Array(",\"uri\":".utf8)
            JSONWriter.append(String(path.prefix(512)), to: &line)
        }
        line += Array("}\n".utf8)
        try? logOutput.write(line)
    }
}

/// File descriptor 1, never closed.
let logOutput = FileDescriptor(owning: 1, path: "standard output")
