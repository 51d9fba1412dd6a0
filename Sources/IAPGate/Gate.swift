import IAPPurchase

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The gate's decisions, free of HTTP: `authorize` turns a signed transaction into a download
/// token, `check` says whether a token opens the file a URI names, `notify` takes an App Store
/// Server Notification (Gate+Notifications.swift); with revocations kept, a revoked purchase earns
/// no token and its tokens open nothing.
package struct Gate: Sendable {
    /// The largest request body accepted by `POST /v1/authorize`.
    package static let maxBodySize = 64 * 1024

    /// Verifies transactions.
    package let verifier: TransactionVerifier
    /// Issues and checks tokens.
    package let tokens: DownloadTokens
    /// The products served.
    package let products: PublishedProducts
    /// How long a token opens its product, in seconds.
    package let tokenTTL: Int
    /// The URI path under which nginx serves ROOT (starts and ends with `/`).
    package let uriPrefix: String
    /// Verifies notifications (nil: `/v1/notifications` is off).
    package let notifications: NotificationVerifier?
    /// What notifications and operators decided (nil: no revocation is checked).
    package let revocations: (any RevocationStore)?

    /// A gate deciding with `verifier` and `tokens` over `products`; taking notifications with
    /// `notifications` and keeping their decisions in `revocations` when given.
    package init(
        verifier: TransactionVerifier, tokens: DownloadTokens, products: PublishedProducts, tokenTTL: Int,
        uriPrefix: String, notifications: NotificationVerifier? = nil, revocations: (any RevocationStore)? = nil
    ) {
        self.notifications = notifications
        self.revocations = revocations
        self.verifier = verifier
        self.tokens = tokens
        self.products = products
        self.tokenTTL = tokenTTL
        self.uriPrefix = uriPrefix
    }

    /// The body of `{"signedTransaction": "<JWS>"}`.
    private struct AuthorizeRequest: Decodable {
        let signedTransaction: String
    }

    /// `POST /v1/authorize`: the product, its current version and a token, or why not.
    package func authorize(body: [UInt8], now: Date = Date()) async -> GateAnswer {
        guard body.count <= Self.maxBodySize else {
            return .refusal(413, "request-too-large", "the request body is over \(Self.maxBodySize) bytes")
        }
        guard let request = try? JSONDecoder().decode(AuthorizeRequest.self, from: Data(body)) else {
            return .refusal(
                400, "request-malformed",
                "send a JSON object {\"signedTransaction\": \"<JWS>\"} (Content-Type: application/json)")
        }
        let transaction: SignedTransaction
        do {
            transaction = try await verifier.verify(request.signedTransaction) { products.current(of: $0) != nil }
        } catch {
            return .refusal(403, error)
        }
        let product = transaction.productId
        let purchase = transaction.originalTransactionId ?? transaction.transactionId
        if let refusal = revocationRefusal(purchase, product: product) { return refusal }
        guard let current = products.current(of: product) else {
            return .refusal(
                403, PurchaseRefusal(.productUnknown, "no product '\(product)' is published here"),
                product: product)
        }
        let issued = tokens.issue(product: product, ttl: tokenTTL, now: now, originalTransactionId: purchase)
        var out = Array("{\"expiresAt\":\(Int64(issued.expiresAt.timeIntervalSince1970)),\"manifestSHA256\":".utf8)
        JSONWriter.append(current.manifestSHA256, to: &out)
        out += Array(",\"path\":".utf8)
        JSONWriter.append(uriPrefix + product + "/" + current.version + "/", to: &out)
        out += Array(",\"productId\":".utf8)
        JSONWriter.append(product, to: &out)
        out += Array(",\"schemaVersion\":1,\"token\":".utf8)
        JSONWriter.append(issued.token, to: &out)
        out += Array(",\"tokenType\":\"Bearer\",\"version\":".utf8)
        JSONWriter.append(current.version, to: &out)
        out += Array("}\n".utf8)
        return GateAnswer(status: 200, code: "ok", product: product, body: out)
    }

    /// `GET /v1/check` (nginx's `auth_request`): 204 when the bearer token opens the product that
    /// `originalURI` names, 401 when there is no usable token, 403 when it is not for that file.
    package func check(originalURI: String?, authorization: [String], now: Date = Date()) -> GateAnswer {
        guard let uri = originalURI, !uri.isEmpty else {
            return .refusal(
                403, "uri-missing", "no X-Original-URI header (proxy_set_header X-Original-URI $request_uri;)")
        }
        if OriginalURI.hasQueryToken(uri) {
            return .refusal(
                403, "token-in-query",
                "tokens are accepted only in the Authorization header: a query string is written to access logs")
        }
        let product: String
        do {
            product = try OriginalURI.product(of: uri, prefix: uriPrefix)
        } catch {
            return .refusal(403, "uri-invalid", error.message)
        }
        switch admit(authorization, product: product, now: now) {
        case .refused(let refusal): return refusal
        case .admitted: return GateAnswer(status: 204, code: "ok", product: product, body: [])
        }
    }

    /// What `admit` decided.
    enum Admission {
        /// The token opens the product until its `expiresAt`.
        case admitted(IssuedToken)
        /// 401 when there is no usable token, 403 when it is not for the product or revoked.
        case refused(GateAnswer)
    }

    /// Whether the one bearer token in `authorization` opens `product` now (signed, unexpired, for
    /// that product, its purchase not revoked).
    func admit(_ authorization: [String], product: String, now: Date) -> Admission {
        guard authorization.count <= 1 else {
            return .refused(
                .refusal(401, TokenRefusal(.malformed, "more than one Authorization header")))
        }
        var token = ""
        if let header = authorization.first {
            guard let bearer = Self.bearerToken(header) else {
                return .refused(
                    .refusal(
                        401, TokenRefusal(.malformed, "the Authorization header is not 'Bearer <token>'")
                    ))
            }
            token = bearer
        }
        let checked: IssuedToken
        do {
            checked = try tokens.check(token, product: product, now: now)
        } catch {
            let status = error.reason == .otherProduct ? 403 : 401
            return .refused(.refusal(status, error, product: product))
        }
        if revocations != nil {
            guard let purchase = checked.originalTransactionId else {
                return .refused(
                    .refusal(
                        401,
                        TokenRefusal(
                            .unbound,
                            "the token names no purchase (issued before refunds were checked); ask for a new one"),
                        product: product))
            }
            if let refusal = revocationRefusal(purchase, product: product) { return .refused(refusal) }
        }
        return .admitted(checked)
    }

    /// The token of `Authorization: Bearer <token>` (the scheme in any case), or nil.
    static func bearerToken(_ header: String) -> String? {
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].drop { $0 == " " }
        return String(token.reversed().drop { $0 == " " }.reversed())
    }
}
