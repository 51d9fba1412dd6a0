#if canImport(AsyncHTTPClient)
    import AsyncHTTPClient
    import NIOCore

    extension TransportError {
        /// What AsyncHTTPClient or swift-nio reported, in words (the retry loop judges it transient).
        init(_ error: Error) {
            self.init(cancelled: false, description: Self.words(for: error))
        }

        private static func words(for error: Error) -> String {
            if let error = error as? HTTPClientError {
                switch error {
                case .connectTimeout: return "the connection timed out"
                case .readTimeout: return "the server sent nothing for too long (read timeout)"
                case .remoteConnectionClosed: return "the server closed the connection before the answer ended"
                case .tlsHandshakeTimeout: return "the TLS handshake timed out"
                case .redirectLimitReached, .redirectCycleDetected: return "too many redirects (\(error))"
                case .invalidProxyResponse, .proxyAuthenticationRequired, .httpProxyHandshakeTimeout:
                    return "the proxy refused the tunnel (\(error)); check http_proxy, https_proxy and no_proxy"
                default: return "\(error)"
                }
            }
            if let error = error as? IOError {
                // Linux's errno values, the ones a connection meets.
                let reasons: [Int32: String] = [
                    104: "the connection was reset", 110: "the connection timed out",
                    111: "the connection was refused", 113: "no route to the host",
                ]
                return reasons[error.errnoCode] ?? "the connection failed (errno \(error.errnoCode))"
            }
            let text = "\(error)"
            if text.contains("SSL") || text.contains("handshake") { return "TLS failed (\(text))" }
            return text
        }
    }
#endif
