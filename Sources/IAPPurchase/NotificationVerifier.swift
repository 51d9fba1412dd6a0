#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Verifies App Store Server Notifications V2 offline, as Apple's App Store Server Library does
/// with online checks off: the `signedPayload` JWS is checked as a transaction is (ES256, the `x5c`
/// chain to a trust anchor with Apple's marker extensions, valid at the notification's
/// `signedDate`), its app and environment must be the configured ones (and its `appAppleId`, when
/// one is configured), and the transaction inside (`data.signedTransactionInfo`) is verified too:
/// its signature, chain, app and environment. A refunded transaction is accepted here: it carries
/// `revocationDate` by nature.
///
/// ```swift
/// let verifier = NotificationVerifier(anchors: anchors, bundleId: "com.example.game", environment: .production)
/// let notification = try verifier.verify(body: requestBody)        // {"signedPayload": "<JWS>"}
/// if let event = notification.revocationEvent { try store.record(event) }
/// // then answer 200: Apple does not send it again.
/// ```
public struct NotificationVerifier: Sendable {
    /// The longest `signedPayload` accepted (Apple's are about 10–20 KB: a chain, and the
    /// transaction's own JWS with its chain inside).
    public static let maxJWSLength = 64 * 1024
    /// The longest request body accepted by ``verify(body:)``.
    public static let maxBodyLength = maxJWSLength + 1024

    /// The transactions' verifier: the same anchors, app and environment.
    public let transactions: TransactionVerifier
    /// The App Store's numeric identifier of the app, checked when given.
    public let appAppleId: Int64?

    /// A verifier for `bundleId`'s notifications in `environment`, chained to `anchors`; `appAppleId`
    /// (App Store Connect, App Information, Apple ID) is checked when given.
    public init(anchors: TrustAnchors, bundleId: String, environment: StoreEnvironment, appAppleId: Int64? = nil) {
        transactions = TransactionVerifier(anchors: anchors, bundleId: bundleId, environment: environment)
        self.appAppleId = appAppleId
    }

    /// The body Apple posts.
    private struct Body: Decodable {
        let signedPayload: String
    }

    /// The notification of a request body `{"signedPayload": "<JWS>"}`, once every check passed.
    /// - Throws: ``PurchaseRefusal``: ``PurchaseRefusalReason/requestMalformed`` when the body is
    ///   not that object, otherwise the first check of ``verify(signedPayload:)`` that failed.
    public func verify(body: [UInt8]) throws(PurchaseRefusal) -> SignedNotification {
        guard body.count <= Self.maxBodyLength else {
            throw PurchaseRefusal(
                .jwsTooLarge, "the body is \(body.count) bytes; at most \(Self.maxBodyLength) are accepted")
        }
        guard JSONShape.isObject(body), let decoded = try? JSONDecoder().decode(Body.self, from: Data(body)) else {
            throw PurchaseRefusal(
                .requestMalformed, "the body is not a JSON object {\"signedPayload\": \"<JWS>\"} (a V2 notification)")
        }
        return try verify(signedPayload: decoded.signedPayload)
    }

    /// The notification `signedPayload` carries, once every check passed.
    /// - Throws: ``PurchaseRefusal`` naming the first check that failed.
    public func verify(signedPayload: String) throws(PurchaseRefusal) -> SignedNotification {
        let wire = try SignedDataCheck(anchors: transactions.anchors).verify(
            signedPayload, maxLength: Self.maxJWSLength, naming: "notification", decode: SignedNotification.Wire.init,
            signedDate: \.signedMoment)
        let owner = wire.owner
        let bundleId = transactions.bundleId
        guard let app = owner.bundleId, app == bundleId else {
            throw PurchaseRefusal(
                .bundleMismatch,
                "the notification is for the app '\(Printable.clip(owner.bundleId ?? "(none)"))', not '\(bundleId)'")
        }
        if let appAppleId, owner.appAppleId != appAppleId {
            throw PurchaseRefusal(
                .appAppleIdMismatch,
                "the notification's appAppleId is \(owner.appAppleId.map(String.init) ?? "absent"), not \(appAppleId)")
        }
        let environment = transactions.environment.rawValue
        guard let place = owner.environment, place == environment else {
            throw PurchaseRefusal(
                .environmentMismatch,
                "the notification is from '\(Printable.clip(owner.environment ?? "(none)"))', not \(environment)")
        }
        let transaction = try wire.data?.signedTransactionInfo.map(verifyTransaction)
        return SignedNotification(
            notificationType: wire.notificationType, subtype: wire.subtype, notificationUUID: wire.notificationUUID,
            signedDate: wire.signedMoment, bundleId: app, appAppleId: owner.appAppleId, environment: place,
            transaction: transaction)
    }

    /// The transaction inside: signature, chain, app, environment, and an original transaction
    /// identifier a revocation can be kept under.
    private func verifyTransaction(_ jws: String) throws(PurchaseRefusal) -> SignedTransaction {
        let transaction: SignedTransaction
        do {
            transaction = try SignedDataCheck(anchors: transactions.anchors).verify(
                jws, maxLength: TransactionVerifier.maxJWSLength, naming: "signed transaction",
                decode: SignedTransaction.init(payload:), signedDate: \.signedDate)
            try transactions.checkOwner(transaction)
        } catch {
            throw PurchaseRefusal(error.reason, "data.signedTransactionInfo: " + error.message)
        }
        guard Identifier.isPlain(transaction.originalTransactionId ?? transaction.transactionId) else {
            throw PurchaseRefusal(
                .jwsPayload,
                "data.signedTransactionInfo: originalTransactionId is not 1 to 64 letters, digits, '.', '_' or '-'")
        }
        return transaction
    }
}
