import Foundation
import Testing

@testable import IAPPurchase

/// Download tokens open one product until they expire, and nothing else: altered, expired,
/// other-product, other-key and malformed tokens are refused with their reason codes.
@Suite struct DownloadTokensTests {
    let key = Array(repeating: UInt8(7), count: 32)
    let product = "com.example.game.levels.pack1"
    let now = Date(timeIntervalSince1970: 1_795_564_800)

    func refusal(_ token: String, product: String? = nil, tokens: DownloadTokens? = nil, at time: Date? = nil) throws
        -> TokenRefusal.Reason?
    {
        let tokens = try tokens ?? DownloadTokens(key: key)
        do {
            try tokens.check(token, product: product ?? self.product, now: time ?? now)
            return nil
        } catch {
            return error.reason
        }
    }

    @Test func issuedTokenOpensItsProductUntilItExpires() throws {
        let tokens = try DownloadTokens(key: key)
        let issued = tokens.issue(product: product, ttl: 600, now: now)
        #expect(issued.expiresAt == now.addingTimeInterval(600))
        #expect(try refusal(issued.token) == nil)
        #expect(try refusal(issued.token, at: now.addingTimeInterval(599)) == nil)
        #expect(try refusal(issued.token, at: now.addingTimeInterval(600)) == .expired)
        #expect(try refusal(issued.token, product: "com.example.game.levels.pack2") == .otherProduct)
    }

    @Test func alteredAndForeignTokensAreRefused() throws {
        let tokens = try DownloadTokens(key: key)
        let token = tokens.issue(product: product, ttl: 600, now: now).token
        let parts = token.split(separator: ".").map(String.init)
        // Claims rewritten for another product (or a later expiry) under the original signature.
        let forged = Base64URL.encode(Array(#"{"exp":9999999999,"pid":"com.example.game.levels.pack1","v":1}"#.utf8))
        #expect(try refusal(forged + "." + parts[1]) == .signature)
        // One character of the signature changed.
        var mac = Array(parts[1])
        mac[5] = mac[5] == "A" ? "B" : "A"
        #expect(try refusal(parts[0] + "." + String(mac)) == .signature)
        // The same claims signed with another key: a rotated key revokes every token.
        let rotated = try DownloadTokens(key: Array(repeating: UInt8(8), count: 32))
        #expect(try refusal(token, tokens: rotated) == .signature)
    }

    @Test func malformedTokensAreRefused() throws {
        let token = try DownloadTokens(key: key).issue(product: product, ttl: 600, now: now).token
        let cases: [(TokenRefusal.Reason, String)] = [
            (.missing, ""),
            (.malformed, "Bearer"),
            (.malformed, token + ".x"),
            (.malformed, token.replacingOccurrences(of: ".", with: "")),
            (.malformed, "." + token.split(separator: ".")[1]),
            (.malformed, token + "="),
            (.malformed, String(repeating: "A", count: DownloadTokens.maxTokenLength) + "." + "AA"),
            (.malformed, "%%%.%%%"),
        ]
        for (reason, text) in cases {
            #expect(try refusal(text) == reason, "\(text.prefix(40))")
        }
        // Well signed, but claims of another version, or not an object.
        let tokens = try DownloadTokens(key: key)
        #expect(try refusal(tokens.signed(claims: Array(#"{"exp":9999999999,"pid":"p","v":2}"#.utf8))) == .malformed)
        #expect(try refusal(tokens.signed(claims: Array(#"["exp"]"#.utf8))) == .malformed)
    }

    @Test func aTokenNamesThePurchaseItWasIssuedFor() throws {
        let tokens = try DownloadTokens(key: Array(repeating: 7, count: 32))
        let product = "com.example.game.levels.pack1"
        let bound = tokens.issue(product: product, ttl: 60, originalTransactionId: "2000000000000001")
        #expect(try tokens.check(bound.token, product: product).originalTransactionId == "2000000000000001")
        // Tokens issued before purchases were named in them: still valid, naming none.
        let unbound = tokens.issue(product: product, ttl: 60)
        let claims = try #require(Base64URL.decode(unbound.token.split(separator: ".")[0]))
        #expect(!String(decoding: claims, as: UTF8.self).contains("otid"))
        #expect(try tokens.check(unbound.token, product: product).originalTransactionId == nil)
    }

    @Test func shortKeysAreRefused() {
        #expect(throws: TokenKeyError.self) { try DownloadTokens(key: Array(repeating: 1, count: 31)) }
        #expect(throws: TokenKeyError.self) { try DownloadTokens(key: []) }
    }

    @Test func everyReasonCodeIsStable() {
        #expect(
            TokenRefusal.Reason.allCases.map(\.rawValue) == [
                "token-missing", "token-malformed", "token-signature", "token-expired", "token-other-product",
                "token-unbound",
            ])
        #expect(Set(PurchaseRefusal.Reason.allCases.map(\.rawValue)).count == PurchaseRefusal.Reason.allCases.count)
    }

    /// The gate answers a token's and a purchase's refusals in one `code` field: no code means both.
    @Test func tokenAndPurchaseCodesNeverCollide() {
        let tokenCodes = Set(TokenRefusal.Reason.allCases.map(\.rawValue))
        let purchaseCodes = Set(PurchaseRefusal.Reason.allCases.map(\.rawValue))
        #expect(tokenCodes.isDisjoint(with: purchaseCodes))
        #expect(TokenRefusal(.expired, "over").description == "token-expired: over")
        #expect(PurchaseRefusal(.revoked, "refunded").code == "revoked")
    }
}
