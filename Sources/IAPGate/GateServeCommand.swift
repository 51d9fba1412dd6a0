import ArgumentParser
import IAPPurchase
import IAPRevocationState
import IAPSystem

/// `iapkg-gate serve`, the default of `iapkg-gate` (run as `iapkg gate`): the HTTP service that
/// sells nothing and gives nothing away — it turns a verified StoreKit 2 purchase into a
/// short-lived download token, answers nginx's `auth_request` for every file under
/// ROOT/<product>/, and with `--state` takes App Store Server Notifications and closes the door on
/// refunded purchases.
package struct GateServeCommand: AsyncParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve content only to buyers: verify StoreKit 2 purchases, issue download tokens, answer nginx.",
        discussion: """
            POST /v1/authorize with {"signedTransaction": "<JWS>"} (the app's Transaction.jwsRepresentation) \
            verifies the purchase offline (the x5c chain to a --trust-anchor such as Apple Root CA - G3, Apple's \
            marker extensions, the ES256 signature, the bundle, the environment, no revocation, a Non-Consumable \
            product published under ROOT) and answers the product, its current version and a download token.

            GET /v1/check is for nginx's auth_request: the original URI in X-Original-URI, the token as \
            'Authorization: Bearer <token>'; 204 when the token opens that product's files, 401 or 403 otherwise. \
            POST /v1/notifications (with --state) takes App Store Server Notifications V2 \
            ({"signedPayload": "<JWS>"}): REFUND and REVOKE revoke the purchase's originalTransactionId, \
            REFUND_REVERSED lifts it, the later signedDate deciding; 200 once the decision is on disk. A \
            revoked purchase earns no token (403 revoked) and its tokens open nothing (/v1/check 403 revoked).

            One JSON line per request on stdout; SIGTERM drains and exits 0. \
            Examples/server/iapkg-gated.conf is the nginx side.

            Example:
              head -c 32 /dev/urandom > /etc/iapkg/gate.key && chmod 600 /etc/iapkg/gate.key
              iapkg gate --root /srv/content --listen 127.0.0.1:8089 --bundle-id com.example.game \\
                --trust-anchor /etc/iapkg/AppleRootCA-G3.pem --key-file /etc/iapkg/gate.key
            """)

    @Option(help: "The version store nginx serves (iapkg unpack/serve --into ROOT).")
    var root: String

    @Option(help: ArgumentHelp("The address to listen on; port 0 picks a free one.", valueName: "host:port"))
    var listen: String = "127.0.0.1:8089"

    @Option(name: .customLong("bundle-id"), help: "The app whose purchases are accepted.")
    var bundleId: String

    @Option(
        name: .customLong("trust-anchor"),
        help: ArgumentHelp("A PEM root certificate (Apple Root CA - G3); repeatable.", valueName: "pem"))
    var trustAnchors: [String] = []

    @Option(help: ArgumentHelp("Production, or Sandbox for testing.", valueName: "Production|Sandbox"))
    var environment: String = "Production"

    @Option(
        name: .customLong("key-file"),
        help: "The token key: at least 32 random bytes (head -c 32 /dev/urandom); replacing it revokes every token.")
    var keyFile: String

    @Option(name: .customLong("token-ttl"), help: ArgumentHelp("How long a token is valid.", valueName: "seconds"))
    var tokenTTL: Int = 600

    @Option(name: .customLong("uri-prefix"), help: "The URI path under which nginx serves ROOT.")
    var uriPrefix: String = "/"

    @Option(
        help: ArgumentHelp(
            "Where notifications' decisions are kept (SQLite, shared by the gates of this host); enables "
                + "/v1/notifications and the revocation checks.", valueName: "dir"))
    var state: String?

    @Option(
        name: .customLong("app-apple-id"),
        help: ArgumentHelp("The app's Apple ID (App Store Connect); notifications must carry it.", valueName: "id"))
    var appAppleId: Int64?

    package init() {}

    package func validate() throws {
        guard !trustAnchors.isEmpty else { throw ValidationError("give at least one --trust-anchor PEM file") }
        guard StoreEnvironment(rawValue: environment) != nil else {
            throw ValidationError("--environment is Production or Sandbox, not '\(environment)'")
        }
        guard (10...86_400).contains(tokenTTL) else {
            throw ValidationError("--token-ttl is 10 to 86400 seconds (minutes, not days), not \(tokenTTL)")
        }
        guard uriPrefix.hasPrefix("/"), uriPrefix.hasSuffix("/"), !uriPrefix.contains("//") || uriPrefix == "/" else {
            throw ValidationError("--uri-prefix starts and ends with '/' (e.g. / or /content/)")
        }
        guard ListenAddress(listen) != nil else {
            throw ValidationError("--listen is HOST:PORT (e.g. 127.0.0.1:8089, [::1]:8089), not '\(listen)'")
        }
        guard FileSystem.status(root)?.isDirectory == true else {
            throw ValidationError("--root \(root) is not a folder")
        }
    }

    package func run() async throws {
        let anchors = try GateSetup.anchors(trustAnchors)
        let tokens = try GateSetup.tokens(keyFile)
        let verifier = TransactionVerifier(
            anchors: anchors, bundleId: bundleId, environment: StoreEnvironment(rawValue: environment) ?? .production)
        let revocations = try state.map { folder in try GateSetup.revocations(folder) }
        let notifications = NotificationVerifier(
            anchors: anchors, bundleId: bundleId, environment: verifier.environment, appAppleId: appAppleId)
        let gate = Gate(
            verifier: verifier, tokens: tokens, products: PublishedProducts(root: root), tokenTTL: tokenTTL,
            uriPrefix: uriPrefix, notifications: notifications, revocations: revocations)
        let address = ListenAddress(listen)!
        let server = GateServer(gate: gate, host: address.host, port: address.port)
        let summary =
            "root \(root), bundle \(bundleId), \(environment), tokens for \(tokenTTL) s, "
            + (state.map { "revocations in \($0)" } ?? "no --state: notifications off")
        try await server.run { port in
            GateSetup.say("iapkg-gate: listening on \(address.display(port: port)) (\(summary))")
        }
        GateSetup.say("iapkg-gate: stopped")
    }
}

/// `HOST:PORT`, `[IPv6]:PORT`.
struct ListenAddress: Equatable {
    /// The host, without brackets.
    let host: String
    /// The port.
    let port: Int

    /// The address `text` spells, or nil.
    init?(_ text: String) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (0...65_535).contains(port)
        else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, !host.contains("[") else { return nil }
        self.host = host
        self.port = port
    }

    /// `host:port` (IPv6 in brackets) with the bound port.
    func display(port: Int) -> String { (host.contains(":") ? "[\(host)]" : host) + ":\(port)" }
}
