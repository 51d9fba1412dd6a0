internal import IAPCrypto

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Verifies StoreKit 2 signed transactions offline, as Apple's App Store Server Library does with
/// online checks off: the `x5c` chain (leaf, intermediate, root) must end at a trust anchor, carry
/// Apple's marker extensions and be valid at the payload's `signedDate`; the ES256 signature must
/// verify with the leaf's key; and the purchase must be this app's, in this environment, not
/// revoked, a non-consumable, and a product published here.
///
/// ```swift
/// let anchors = try TrustAnchors(pem: [String(decoding: pemBytes, as: UTF8.self)])
/// let verifier = TransactionVerifier(anchors: anchors, bundleId: "com.example.game", environment: .production)
/// let transaction = try await verifier.verify(jws) { product in isPublished(product) }
/// ```
public struct TransactionVerifier: Sendable {
    /// The longest JWS accepted (Apple's are about 4–6 KB: three certificates and a small payload).
    public static let maxJWSLength = 32 * 1024
    /// The only `type` hosted content is delivered for.
    public static let nonConsumable = "Non-Consumable"

    /// The roots a chain may end at.
    public let anchors: TrustAnchors
    /// The app whose purchases are accepted.
    public let bundleId: String
    /// The environment whose purchases are accepted.
    public let environment: StoreEnvironment

    /// A verifier for `bundleId`'s purchases in `environment`, chained to `anchors`.
    public init(anchors: TrustAnchors, bundleId: String, environment: StoreEnvironment) {
        self.anchors = anchors
        self.bundleId = bundleId
        self.environment = environment
    }

    /// The transaction `jws` carries, once every check passed; `isPublished` says whether a valid
    /// product identifier names a product that is served.
    /// - Throws: ``PurchaseRefusal`` naming the first check that failed.
    public func verify(_ jws: String, isPublished: (String) -> Bool = { _ in true }) async throws(PurchaseRefusal)
        -> SignedTransaction
    {
        try verifyWithoutSuspending(jws, isPublished: isPublished)
    }

    /// ``verify(_:isPublished:)`` for callers that cannot suspend (the fuzz target): every check is
    /// local, so nothing waits.
    package func verifyWithoutSuspending(_ jws: String, isPublished: (String) -> Bool = { _ in true })
        throws(PurchaseRefusal) -> SignedTransaction
    {
        let transaction = try SignedDataCheck(anchors: anchors).verify(
            jws, maxLength: Self.maxJWSLength, naming: "signed transaction", decode: SignedTransaction.init(payload:),
            signedDate: \.signedDate)
        try checkPurchase(transaction, isPublished: isPublished)
        return transaction
    }

    /// The purchase's own fields: app, environment, revocation, type, product.
    func checkPurchase(_ transaction: SignedTransaction, isPublished: (String) -> Bool) throws(PurchaseRefusal) {
        try checkOwner(transaction)
        guard transaction.revocationDate == nil else {
            throw PurchaseRefusal(.revoked, "the purchase was refunded or revoked (revocationDate is set)")
        }
        guard transaction.type == Self.nonConsumable else {
            throw PurchaseRefusal(
                .notNonConsumable,
                "the purchase is of type '\(Printable.clip(transaction.type))'; hosted content is delivered for "
                    + "Non-Consumable products only")
        }
        guard ProductName.isValid(transaction.productId) else {
            throw PurchaseRefusal(.productInvalid, "productId is not a valid product identifier")
        }
        guard isPublished(transaction.productId) else {
            throw PurchaseRefusal(.productUnknown, "no product '\(transaction.productId)' is published here")
        }
    }

    /// The app and environment a transaction belongs to must be the configured ones.
    func checkOwner(_ transaction: SignedTransaction) throws(PurchaseRefusal) {
        guard transaction.bundleId == bundleId else {
            throw PurchaseRefusal(
                .bundleMismatch,
                "the purchase is for the app '\(Printable.clip(transaction.bundleId))', not '\(bundleId)'")
        }
        guard transaction.environment == environment.rawValue else {
            throw PurchaseRefusal(
                .environmentMismatch,
                "the purchase was made in '\(Printable.clip(transaction.environment))', not \(environment.rawValue)")
        }
    }
}

/// Text from a transaction made safe to quote in a message: printable ASCII, at most 64 characters.
enum Printable {
    /// `text` with anything but printable ASCII replaced by `?`, cut at 64 characters.
    static func clip(_ text: String) -> String {
        let scalars = text.unicodeScalars.prefix(64).map { (0x20..<0x7F).contains($0.value) ? Character($0) : "?" }
        return String(scalars) + (text.unicodeScalars.count > 64 ? "…" : "")
    }
}
