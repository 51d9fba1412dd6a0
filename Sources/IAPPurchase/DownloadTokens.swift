internal import IAPCrypto

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Download tokens: short-lived bearer tokens bound to one product, signed with HMAC-SHA256.
///
/// A token is `BASE64URL(claims) "." BASE64URL(HMAC-SHA256(key, BASE64URL(claims)))`, the claims
/// `{"exp":<unix seconds>,"otid":"<original transaction>","pid":"<product>","v":1}` (`otid` names
/// the purchase it was issued for, so that a server can refuse it once that purchase is refunded;
/// tokens issued before 2026-11-28 have none). Nothing is stored on the server: a token is valid
/// while its signature verifies and `exp` is ahead, so rotating the key revokes every token.
///
/// ```swift
/// let tokens = try DownloadTokens(key: keyFileBytes)
/// let issued = tokens.issue(product: "com.example.game.levels.pack1", ttl: 600, originalTransactionId: "2000000000000001")
/// let checked = try tokens.check(issued.token, product: "com.example.game.levels.pack1")   // throws TokenRefusal when not
/// // checked.originalTransactionId: refuse the download when that purchase has been revoked since.
/// ```
public struct DownloadTokens: Sendable {
    /// The shortest key accepted, in bytes (the HMAC-SHA256 block's security level).
    public static let minimumKeyLength = 32
    /// The longest token accepted when checking.
    public static let maxTokenLength = 512

    /// The HMAC key.
    private let key: [UInt8]

    /// Tokens signed with `key` (at least 32 bytes, e.g. `head -c 32 /dev/urandom`).
    public init(key: [UInt8]) throws(TokenKeyError) {
        guard key.count >= Self.minimumKeyLength else {
            throw TokenKeyError(
                "the key is \(key.count) bytes; at least \(Self.minimumKeyLength) random bytes are needed "
                    + "(head -c 32 /dev/urandom > gate.key)")
        }
        self.key = key
    }

    /// A token for `product` valid for `ttl` seconds from `now`, naming the purchase it is issued
    /// for (the transaction's `originalTransactionId`) when given.
    public func issue(product: String, ttl: Int, now: Date = Date(), originalTransactionId: String? = nil)
        -> IssuedToken
    {
        let expires = Int64(now.timeIntervalSince1970.rounded(.down)) + Int64(ttl)
        let claims = Claims(exp: expires, otid: originalTransactionId, pid: product, v: 1)
        return IssuedToken(
            token: signed(claims: claims.json), product: product,
            expiresAt: Date(timeIntervalSince1970: Double(expires)), originalTransactionId: originalTransactionId)
    }

    /// `BASE64URL(claims) "." BASE64URL(HMAC-SHA256(key, BASE64URL(claims)))`.
    func signed(claims: [UInt8]) -> String {
        let body = Base64URL.encode(claims)
        // No code (libcrypto out of memory) makes a token that never verifies, never one that could be forged.
        let code = MessageAuthentication.sha256(key: key, message: Array(body.utf8)) ?? []
        return body + "." + Base64URL.encode(code)
    }

    /// Checks that `token` was issued with this key for `product` and has not expired at `now`;
    /// returns what it says (the purchase it names, if any, is for the caller to check).
    /// - Throws: ``TokenRefusal``.
    @discardableResult
    public func check(_ token: String, product: String, now: Date = Date()) throws(TokenRefusal) -> IssuedToken {
        let claims = try verified(token)
        guard Double(claims.exp) > now.timeIntervalSince1970 else {
            throw TokenRefusal(.expired, "the token expired; ask for a new one")
        }
        guard claims.pid == product else {
            throw TokenRefusal(.otherProduct, "the token is for another product")
        }
        return IssuedToken(
            token: token, product: claims.pid, expiresAt: Date(timeIntervalSince1970: Double(claims.exp)),
            originalTransactionId: claims.otid)
    }

    /// The claims of `token` once its form and signature are checked (expiry is not).
    func verified(_ token: String) throws(TokenRefusal) -> Claims {
        guard !token.isEmpty else { throw TokenRefusal(.missing, "no token was given") }
        guard token.utf8.count <= Self.maxTokenLength else {
            throw TokenRefusal(.malformed, "the token is longer than \(Self.maxTokenLength) bytes")
        }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let body = Base64URL.decode(parts[0]), let mac = Base64URL.decode(parts[1]),
            !body.isEmpty
        else {
            throw TokenRefusal(.malformed, "a token is two base64url parts joined by '.'")
        }
        guard MessageAuthentication.isValidSHA256(mac, key: key, message: Array(parts[0].utf8)) else {
            throw TokenRefusal(.signature, "the token's signature does not verify (altered, or from another key)")
        }
        guard JSONShape.isObject(body), let claims = try? JSONDecoder().decode(Claims.self, from: Data(body)),
            claims.v == 1, claims.otid.map(Identifier.isPlain) ?? true
        else {
            throw TokenRefusal(.malformed, "the token's claims are not version 1")
        }
        return claims
    }

    /// What a token says.
    struct Claims: Codable, Equatable {
        /// Expiry, seconds since 1970.
        let exp: Int64
        /// The original transaction the token was issued for (absent in tokens issued before 2026-11-28).
        let otid: String?
        /// The product.
        let pid: String
        /// The claims' version.
        let v: Int

        /// The claims as JSON with sorted keys.
        var json: [UInt8] {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            // Encoding integers and strings cannot fail.
            return (try? Array(encoder.encode(self))) ?? []
        }
    }
}

/// A token just issued, with what it is for.
public struct IssuedToken: Sendable, Equatable {
    /// The bearer token, for `Authorization: Bearer <token>`.
    public let token: String
    /// The product it opens.
    public let product: String
    /// When it stops opening it.
    public let expiresAt: Date
    /// The purchase it was issued for (the transaction's `originalTransactionId`), when it names one.
    public let originalTransactionId: String?
}

/// A token key that cannot be used (too short).
public struct TokenKeyError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What was wrong.
    public let description: String

    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
