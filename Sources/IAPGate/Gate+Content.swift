import IAPPurchase

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension Gate {
    /// The path under which the gate hands out a bucket store's files.
    package static let contentPrefix = "/v1/content/"

    /// `GET /v1/content/<product>/<path>` for a store in a bucket: with a bearer token that opens
    /// the product, a `307` to a presigned GET URL of `PREFIX/<product>/<path>` that expires with
    /// the token or within `BucketFront.maxPresignedSeconds`, whichever is first; otherwise 401 or
    /// 403 and no `Location`. Hidden paths (the store's `.iapkg/` bookkeeping) are never presigned.
    /// Blocking: call it off the event loop.
    package func content(uri: String, authorization: [String], now: Date = Date()) -> GateAnswer {
        guard let bucket = products.bucket else {
            return .refusal(
                404, "not-a-bucket",
                "GET /v1/content serves a store in a bucket (--root s3://BUCKET/PREFIX); nginx serves a folder store")
        }
        if OriginalURI.hasQueryToken(uri) {
            return .refusal(
                403, "token-in-query",
                "tokens are accepted only in the Authorization header: a query string is written to access logs")
        }
        let file: (product: String, path: String)
        do {
            file = try OriginalURI.content(of: uri, prefix: Self.contentPrefix)
        } catch {
            return .refusal(403, "uri-invalid", error.message)
        }
        let token: IssuedToken
        switch admit(authorization, product: file.product, now: now) {
        case .refused(let refusal): return refusal
        case .admitted(let admitted): token = admitted
        }
        guard products.current(of: file.product) != nil else {
            return .refusal(
                404, PurchaseRefusal(.productUnknown, "no product '\(file.product)' is published here"),
                product: file.product)
        }
        let left = Int(token.expiresAt.timeIntervalSince(now).rounded(.down))
        let seconds = min(left, BucketFront.maxPresignedSeconds)
        guard seconds >= 1 else {
            return .refusal(
                401, TokenRefusal(.expired, "the token expires within a second; ask for a new one"),
                product: file.product)
        }
        do {
            let url = try bucket.presignedURL(product: file.product, path: file.path, seconds: seconds)
            return GateAnswer(status: 307, code: "ok", product: file.product, body: [], location: url)
        } catch {
            GateSetup.say("iapkg-gate: error: cannot presign \(file.product)/\(file.path): \(error)")
            return .refusal(
                503, "store-unavailable", "the gate cannot sign a URL of the store now; try again",
                product: file.product)
        }
    }
}
