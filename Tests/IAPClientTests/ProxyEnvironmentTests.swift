#if canImport(AsyncHTTPClient)
    import AsyncHTTPClient
    import Foundation
    import Testing

    @testable import IAPClient

    /// The proxy settings read from the environment as curl reads them (the Linux transport,
    /// AsyncHTTPClient, reads none itself).
    @Suite struct ProxyEnvironmentTests {
        func proxy(_ url: String, _ variables: [String: String]) -> String? {
            ProxyEnvironment(variables: variables).proxy(for: URL(string: url)!).map { "\($0.host):\($0.port)" }
        }

        @Test func eachSchemeTakesItsOwnVariableAndAllProxyLast() {
            let variables = ["http_proxy": "http://plain:3128", "https_proxy": "secure:8443", "ALL_PROXY": "any:1"]
            #expect(proxy("http://cdn.example.com/x", variables) == "plain:3128")
            #expect(proxy("https://cdn.example.com/x", variables) == "secure:8443")
            #expect(proxy("https://cdn.example.com/x", ["ALL_PROXY": "any:1"]) == "any:1")
            #expect(proxy("http://cdn.example.com/x", ["HTTP_PROXY": "upper:1"]) == nil)
            #expect(proxy("http://cdn.example.com/x", ["http_proxy": "noport"]) == "noport:1080")
            #expect(proxy("http://cdn.example.com/x", ["http_proxy": "  "]) == nil)
            #expect(proxy("http://cdn.example.com/x", [:]) == nil)
        }

        @Test func noProxyNamesHostsAndTheirDomains() {
            let variables = ["http_proxy": "p:1", "no_proxy": " .internal.example, 10.0.0.7:8080,localhost "]
            #expect(proxy("http://a.internal.example/x", variables) == nil)
            #expect(proxy("http://internal.example/x", variables) == nil)
            #expect(proxy("http://10.0.0.7/x", variables) == nil)
            #expect(proxy("http://LOCALHOST:8080/x", variables) == nil)
            #expect(proxy("http://notinternal.example/x", variables) == "p:1")
            #expect(proxy("http://cdn.example.com/x", ["http_proxy": "p:1", "NO_PROXY": "*"]) == nil)
        }

        @Test func credentialsAndSocksAreTakenFromTheProxyURL() {
            let withUser = ProxyEnvironment(variables: ["http_proxy": "http://me:p%40ss@proxy:3128"])
                .proxy(for: URL(string: "http://cdn.example.com/")!)
            #expect(withUser?.host == "proxy" && withUser?.port == 3128 && withUser?.authorization != nil)
            let socks = ProxyEnvironment(variables: ["all_proxy": "socks5://gateway:1080"])
                .proxy(for: URL(string: "https://cdn.example.com/")!)
            #expect(socks == .socksServer(host: "gateway", port: 1080))
        }
    }
#endif
