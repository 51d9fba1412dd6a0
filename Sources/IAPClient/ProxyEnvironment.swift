#if canImport(AsyncHTTPClient)
    import AsyncHTTPClient

    #if canImport(FoundationEssentials)
        import FoundationEssentials
    #else
        import Foundation
    #endif

    /// The proxy settings of the environment, read as curl (and so URLSession on Linux) reads them:
    /// `http_proxy` for http:// URLs (lowercase only: a CGI request's `Proxy:` header becomes
    /// `HTTP_PROXY`), `https_proxy` or `HTTPS_PROXY` for https://, else `all_proxy` or `ALL_PROXY`;
    /// `no_proxy` or `NO_PROXY` lists hosts and domains reached directly (`*`: every host).
    /// A proxy is `[http://][user:password@]host[:port]` (port 1080 when absent) or `socks5://host[:port]`.
    struct ProxyEnvironment: Sendable {
        var variables: [String: String]

        /// The process's environment.
        static var current: ProxyEnvironment {
            ProxyEnvironment(variables: ProcessInfo.processInfo.environment)
        }

        /// The proxy for `url`, nil when it is reached directly.
        func proxy(for url: URL) -> HTTPClient.Configuration.Proxy? {
            guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(), !bypasses(host) else {
                return nil
            }
            let names = scheme == "https" ? ["https_proxy", "HTTPS_PROXY"] : scheme == "http" ? ["http_proxy"] : []
            guard let value = (names + ["all_proxy", "ALL_PROXY"]).lazy.compactMap({ self.value($0) }).first else {
                return nil
            }
            return Self.parse(value)
        }

        /// True when `no_proxy` names `host`, one of its parent domains, or `*`.
        func bypasses(_ host: String) -> Bool {
            guard let list = value("no_proxy") ?? value("NO_PROXY") else { return false }
            let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
            for entry in list.split(separator: ",") {
                var name = Self.stripped(entry).lowercased()
                if name == "*" { return true }
                if name.hasPrefix(".") { name.removeFirst() }
                if let colon = name.lastIndex(of: ":"), !name.contains("]"), name.filter({ $0 == ":" }).count == 1 {
                    name = String(name[..<colon])
                }
                if name.hasPrefix("[") && name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
                guard !name.isEmpty else { continue }
                if bare == name || bare.hasSuffix("." + name) { return true }
            }
            return false
        }

        private func value(_ name: String) -> String? {
            guard let value = variables[name].map({ Self.stripped($0) }), !value.isEmpty else { return nil }
            return value
        }

        /// `text` without the spaces and tabs around it.
        static func stripped<Text: StringProtocol>(_ text: Text) -> String {
            let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
            return String(text.drop(while: blank).reversed().drop(while: blank).reversed())
        }

        /// The proxy `value` names, nil when it names no host.
        static func parse(_ value: String) -> HTTPClient.Configuration.Proxy? {
            let text = value.contains("://") ? value : "http://" + value
            guard let url = URL(string: text), let host = url.host, !host.isEmpty else { return nil }
            let port = url.port ?? 1080
            if url.scheme?.lowercased().hasPrefix("socks") == true {
                return .socksServer(host: host, port: port)
            }
            // URL's user and password come percent-decoded.
            guard let user = url.user, !user.isEmpty else { return .server(host: host, port: port) }
            return .server(host: host, port: port, authorization: .basic(username: user, password: url.password ?? ""))
        }
    }
#endif
